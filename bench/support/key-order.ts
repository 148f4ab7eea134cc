/**
 * Tells a rejection caused by property order apart from a real completeness error. Our grammar
 * fixes one order of object keys (README, "Property order"); JSON Schema does not, so a valid
 * instance that writes its keys in another order is refused by the mask for that reason alone.
 *
 * "Contradicts every declared order", precisely: let the grammar's fixed order at an object be
 * the sequence its keys may appear in (declared names, then additional keys). An instance object
 * is compatible with it when its keys are a subsequence of that sequence (optional names may be
 * left out, none may come earlier than a name written before it). A refused valid instance is an
 * "order" rejection when (1) the same instance, with the keys of its objects permuted (values
 * unchanged), is accepted by the grammar, so the values themselves are fine, and (2) that accepted
 * permutation differs from the instance's own order at some object, so the instance's sequence is
 * not a subsequence of the grammar's. The permutation is found by a search driven by the grammar
 * itself (it knows the order, through `$ref`, `allOf` and `anyOf` alike): at each object, try the
 * remaining keys in the instance's order, keep the first whose `"key": value` the grammar takes
 * and that leads to an accepted document, back up otherwise. Two searches run, each with its share
 * of a step and a time budget: the first tries the keys in the instance's own order (it finds the
 * accepted permutation closest to the instance: a key the grammar wants earlier is moved up, the
 * rest stays), the second the keys that keep the most others writable first (the grammar's own
 * order, found where the instance's order leads the first search astray). When both run out the
 * rejection stays a real one (never "order" without a proof).
 */
import type { Matcher } from "../../src/mask/index.js";
import { pythonJsonDumps, PYTHON_SEPARATORS, type LexJson, type LexObject } from "./python-json.js";

const encoder = new TextEncoder();
/** acceptBytes calls one search may make (large nested instances need ~10^5-10^6; a search
 *  runs only for a valid instance the mask refused, and takes at most a few seconds). */
const DEFAULT_BUDGET = 2_000_000;
/** And the time it may take: a bound against a search whose steps build many states, three times
 *  what the step budget takes on a quiet machine (~5 s), so that the verdict depends on the steps,
 *  not on the load (at 5 s, loaded runs left WashingtonPost wp_8 and Github_medium---o61349
 *  unclassified, which a quiet run classifies in about a second); below maskbench's watchdog (20 s). */
const DEFAULT_TIME_LIMIT_MS = 15_000;

/** Forced keys writableAfter follows in a row. */
const FORCED_CHAIN = 4;

export type OrderVerdict = "order" | "rejected";

/** Whether `value`, refused as written, is accepted with its keys in the grammar's order (see above). */
export function orderVerdict(matcher: Matcher, value: LexJson, budget = DEFAULT_BUDGET, timeLimitMs = DEFAULT_TIME_LIMIT_MS): OrderVerdict {
  for (const { keyOrder, share } of SEARCHES) {
    const search = new OrderSearch(matcher, keyOrder, Math.ceil(budget * share), timeLimitMs * share);
    try {
      if (search.emit(value, () => matcher.isComplete())) return search.reordered ? "order" : "rejected";
    } catch (err) {
      // The search recurses per value; a document too deep for the stack stays a real rejection
      // (and the matcher is left mid-document, so no other search may start from it).
      if (err instanceof RangeError) return "rejected";
      throw err;
    }
  }
  return "rejected";
}

/**
 * Which remaining key an object's search tries first: the instance's next one, or the one that
 * leaves the most other keys writable (mostPromisingFirst). Each alone has a shape it is lost on:
 * the instance's order on keys written as additional ones before the declared ones (every placement
 * of each declared key as an additional one is tried), the score on a late optional key followed by
 * a chain of required ones (it scores highest, so the optional keys before it are skipped and only
 * found missing after every order of what follows).
 */
type KeyOrder = "instance" | "score";
const SEARCHES: readonly { keyOrder: KeyOrder; share: number }[] = [
  { keyOrder: "instance", share: 0.25 },
  { keyOrder: "score", share: 0.75 },
];

class OrderSearch {
  /** Whether an accepted permutation moved some key (else the instance's own order was accepted). */
  reordered = false;

  private readonly deadline: number;
  /** The texts accepted so far, one per matcher unit (so a value's accepted text can be read back). */
  private readonly fed: string[] = [];
  /** valueText's memory: per value, per automaton state, the text the grammar took (or undefined). */
  private readonly texts = new Map<LexJson, Map<number, string | undefined>>();

  constructor(private readonly matcher: Matcher, private readonly keyOrder: KeyOrder, private budget: number, timeLimitMs: number) {
    this.deadline = performance.now() + timeLimitMs;
  }

  /** Feeds `value`, then calls `rest`; true when both succeed (on false the matcher is back where it was). */
  emit(value: LexJson, rest: () => boolean): boolean {
    if (value instanceof Map) return this.emitObject(value, rest);
    if (Array.isArray(value)) return this.emitArray(value, 0, rest);
    return this.feed(pythonJsonDumps(value), rest);
  }

  private emitArray(items: readonly LexJson[], i: number, rest: () => boolean): boolean {
    if (i === items.length) return this.feed(items.length === 0 ? "[]" : "]", rest);
    const open = i === 0 ? "[" : PYTHON_SEPARATORS.item;
    return this.feed(open, () => this.emit(items[i]!, () => this.emitArray(items, i + 1, rest)));
  }

  private emitObject(object: LexObject, rest: () => boolean): boolean {
    const keys = [...object.keys()];
    // Whether the rest succeeds depends only on the automaton state and the keys left, so a
    // (keys left, state) pair that failed once fails again: remembered, the search stays
    // polynomial in practice instead of trying every permutation.
    const failed = new Map<string, Set<number>>();
    return this.feed("{", () => this.emitEntries(object, keys, [], rest, failed));
  }

  /** Writes the `remaining` keys of `object` in some order the grammar takes; `written` so far. */
  private emitEntries(object: LexObject, remaining: readonly string[], written: readonly string[], rest: () => boolean, failed: Map<string, Set<number>>): boolean {
    const left = remaining.join("\u0000");
    const state = this.matcher.state;
    if (failed.get(left)?.has(state) === true) return false;
    if (this.tryEntries(object, remaining, written, rest, failed)) return true;
    if (!failed.has(left)) failed.set(left, new Set());
    failed.get(left)!.add(state);
    return false;
  }

  private tryEntries(object: LexObject, remaining: readonly string[], written: readonly string[], rest: () => boolean, failed: Map<string, Set<number>>): boolean {
    if (remaining.length === 0) {
      const moved = written.some((k, i) => k !== [...object.keys()][i]);
      return this.feed("}", () => {
        if (!rest()) return false;
        if (moved) this.reordered = true;
        return true;
      });
    }
    const candidates = this.keyOrder === "instance" ? remaining : this.mostPromisingFirst(object, remaining, written.length === 0);
    for (const key of candidates) {
      const prefix = entryPrefix(key, written.length === 0);
      const others = remaining.filter((k) => k !== key);
      if (this.feed(prefix, () => this.emitValue(object.get(key)!, () => this.emitEntries(object, others, [...written, key], rest, failed)))) return true;
      if (this.exhausted()) return false;
    }
    return false;
  }

  /**
   * Feeds a value the grammar is known to take here (valueText) as that text first, and searches
   * its key orders again only when the rest fails after it: without this every nesting level
   * searched each value twice (once to score it, once to write it), 2^depth searches per leaf.
   */
  private emitValue(value: LexJson, rest: () => boolean): boolean {
    const known = this.texts.get(value)?.get(this.matcher.state);
    if (known !== undefined) {
      const moved = known !== pythonJsonDumps(value);
      const fromKnown = this.feed(known, () => {
        if (!rest()) return false;
        if (moved) this.reordered = true;
        return true;
      });
      if (fromKnown || this.exhausted()) return fromKnown;
    }
    return this.emit(value, rest);
  }

  /**
   * The remaining keys, those that leave the most other keys writable next first (in the
   * instance's order among equals). Without it an object whose schema also admits additional
   * keys sends the search down every placement of a declared key as an additional one (composer's
   * schema: past any budget); with it the grammar's own order is usually found at the first try.
   */
  private mostPromisingFirst(object: LexObject, remaining: readonly string[], first: boolean): readonly string[] {
    if (remaining.length < 2 || this.exhausted()) return remaining;
    const score = new Map<string, number>();
    for (const key of remaining) score.set(key, this.writableAfter(object, key, remaining, first, FORCED_CHAIN));
    return [...remaining].sort((a, b) => score.get(b)! - score.get(a)!);
  }

  /**
   * How many of the other `remaining` keys the grammar takes after `key` and its value (-1 when
   * it takes neither). When exactly one is taken (a required name the grammar will not skip),
   * that one is followed, up to `chain` times: after an optional key the next required one may
   * be the only choice, and the keys after it still count (else skipping the optional key, which
   * keeps more keys writable next, scores higher and sends the search through every order of
   * what follows before it comes back).
   */
  private writableAfter(object: LexObject, key: string, remaining: readonly string[], first: boolean, chain: number): number {
    const prefix = entryPrefix(key, first);
    if (!this.accepts(prefix)) return -1;
    const value = this.valueText(object.get(key)!, prefix);
    if (value === undefined || !this.matcher.acceptBytes(encoder.encode(prefix + value))) return -1;
    const others = remaining.filter((k) => k !== key);
    const next = others.filter((k) => this.accepts(entryPrefix(k, false)));
    const count = next.length === 1 && chain > 0 ? 1 + Math.max(0, this.writableAfter(object, next[0]!, others, false, chain - 1)) : next.length;
    this.matcher.rollback(1);
    return count;
  }

  /**
   * The text of `value` as the grammar first takes it after `prefix` (its objects' keys in some
   * accepted order: as written when the grammar takes that), or undefined. Remembered per value
   * and state: scoring re-reads the same nested values many times, and a fresh search each time
   * would multiply per nesting level (the state includes the enclosing objects' positions, so
   * a text found at one state is tried at the others first).
   */
  private valueText(value: LexJson, prefix: string): string | undefined {
    if (!this.matcher.acceptBytes(encoder.encode(prefix))) return undefined;
    const state = this.matcher.state;
    let byState = this.texts.get(value);
    if (byState === undefined) this.texts.set(value, (byState = new Map()));
    // The text as written, then the texts found for this value at other states (a value's rule
    // rarely depends on where its key stands), before a search of its key orders.
    for (const text of [pythonJsonDumps(value), ...new Set(byState.values())]) {
      if (byState.has(state)) break;
      if (text !== undefined && this.accepts(text)) byState.set(state, text);
    }
    if (!byState.has(state)) {
      const start = this.fed.length;
      // A probe: a reordering found here counts only once the text is written (emitValue).
      const reordered = this.reordered;
      let text: string | undefined;
      this.emit(value, () => {
        text = this.fed.slice(start).join("");
        return true;
      });
      const units = this.fed.length - start;
      this.matcher.rollback(units);
      this.fed.length = start;
      this.reordered = reordered;
      byState.set(state, text);
    }
    this.matcher.rollback(1);
    return byState.get(state);
  }

  private exhausted(): boolean {
    return this.budget <= 0 || performance.now() > this.deadline;
  }

  /** Whether the grammar takes `text` here (the matcher is left where it was). */
  private accepts(text: string): boolean {
    if (!this.matcher.acceptBytes(encoder.encode(text))) return false;
    this.matcher.rollback(1);
    return true;
  }

  /** Accepts `text` as one unit and continues with `rest`; rolls back when either fails. */
  private feed(text: string, rest: () => boolean): boolean {
    if (--this.budget < 0) return false;
    if (!this.matcher.acceptBytes(encoder.encode(text))) return false;
    this.fed.push(text);
    if (rest()) return true;
    this.matcher.rollback(1);
    this.fed.pop();
    return false;
  }
}

/** `"key": ` as the instance writes it, after a comma unless it is the object's first entry. */
function entryPrefix(key: string, first: boolean): string {
  return `${first ? "" : PYTHON_SEPARATORS.item}${pythonJsonDumps(key)}${PYTHON_SEPARATORS.key}`;
}
