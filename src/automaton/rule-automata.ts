/**
 * Grammar IR -> one finished DFA per rule, where a reference is either inlined (the callee's
 * automaton embedded, for small non-recursive rules) or kept as a call column (dfa.ts `callees`)
 * that the grammar automaton (grammar-automaton.ts) runs with a stack. Calls are what keep big
 * schemas small: a definition used in twenty places, or a nested object, is built once instead of
 * being copied into every caller's states, and recursion needs no unrolling.
 *
 * Recursion depth keeps the meaning it has always had: entering a recursion head (rule-graph.ts)
 * from inside its cycle spends one unit, entering another strongly connected component starts
 * afresh at the maximum, and the analysis (rule-analysis.ts) removes every move that could only
 * complete deeper than allowed.
 */
import type { Grammar } from "../grammar/ir.js";
import { PocketExtractError } from "../errors.js";
import { Budget } from "./budget.js";
import { compileExpr } from "./compile-expr.js";
import type { ByteDfa } from "./dfa.js";
import type { Leaf } from "./expr-nfa.js";
import { finish } from "./finish.js";
import { JsonStrings, type JsonStringSpec } from "./json-string.js";
import { analyzeRules } from "./rule-graph.js";
import { StructuralKeys } from "./structural-keys.js";
import { BoundedStringAutomaton } from "./bounded-string.js";
import { isLazyRule, type LazyRule, type RuleTables } from "./rule-tables.js";
import { VerbatimAutomaton } from "./verbatim-automaton.js";
import { LruCache } from "../util/lru.js";

export interface BuildOptions {
  /** How many times a recursive rule may be re-entered along one path (default 8). */
  readonly maxRecursionDepth?: number;
  /** Largest number of states of any automaton built on the way (default 200,000); also bounds
   *  the states the grammar automaton may materialize while decoding. */
  readonly maxStates?: number;
}

export const DEFAULT_MAX_RECURSION_DEPTH = 8;
export const DEFAULT_MAX_STATES = 200_000;
/** Total work allowed per build, in units of state/edge visits per allowed state. */
const WORK_PER_STATE = 64;
/** Non-recursive rules up to this many states are inlined: a call costs a stack frame at every
 *  use, which is only worth it for automata big enough to matter. */
const INLINE_MAX_STATES = 64;

export interface RuleAutomata {
  /** Per rule id: its finished automaton (call columns name rule ids), or a document's verbatim
   *  string automaton. */
  readonly dfas: readonly (ByteDfa | LazyRule)[];
  readonly names: readonly string[];
  readonly root: number;
  /** Per rule id: the component id (rules in one cycle share it; a callee's id is lower). */
  readonly component: Int32Array;
  /** Per rule id: 1 for a recursion head (entering it from its own component costs depth). */
  readonly head: Uint8Array;
  /** Per rule id: 1 when its component is recursive (its analysis depends on the depth left). */
  readonly recursive: Uint8Array;
  readonly maxDepth: number;
  /** Per rule id: where a shared (cached) rule keeps its analysis, so schemas that share the rule
   *  share it too; undefined for rules built for this grammar only. */
  readonly shared: readonly (SharedTables | undefined)[];
}

/** The analysis of a shared rule, filled in by the first grammar that needs it. */
export interface SharedTables {
  tables?: RuleTables;
}

export function buildRuleAutomata(grammar: Grammar, options: BuildOptions = {}): RuleAutomata {
  const maxDepth = options.maxRecursionDepth ?? DEFAULT_MAX_RECURSION_DEPTH;
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const budget = new Budget(maxStates, maxStates * WORK_PER_STATE);
  const { heads, component, recursiveComponents } = analyzeRules(grammar);
  const strings = new JsonStrings(budget);
  const keys = new StructuralKeys(grammar, (name) => recursiveComponents.has(component.get(name)!));
  /** Rules that are called (and the root) get ids; inlined ones only live in their callers. */
  const ids = new Map<string, number>();
  const names: string[] = [];
  const dfas: (ByteDfa | LazyRule | null | undefined)[] = [];
  const built = new Map<string, ByteDfa | null>();
  const sharedOf = new Map<string, CachedRule>();

  const idOf = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.push(name) - 1;
      ids.set(name, id);
    }
    return id;
  };

  /** Small strings are inlined; bigger ones, and verbatim ones (their automaton is the
   *  document's, so callers must not depend on it), become rules of their own, called. Plain
   *  verbatim and length-only strings are computed on demand (lazy rules), not built. */
  const stringRule = (leaf: JsonStringSpec): ByteDfa | number | null => {
    if (leaf.minLength > leaf.maxLength) return null;
    const dfa = isPlainVerbatim(leaf)
      ? VerbatimAutomaton.of(leaf.substringOf, "verbatim string")
      : isLongLengthOnly(leaf)
        ? new BoundedStringAutomaton(leaf.minLength, leaf.maxLength)
        : strings.get(leaf);
    if (dfa === null || (leaf.substringOf === undefined && !isLazyRule(dfa) && dfa.numStates <= INLINE_MAX_STATES)) return dfa as ByteDfa | null;
    const id = idOf(`${STRING_RULE_PREFIX}${JsonStrings.keyOf(leaf)}`);
    dfas[id] = dfa;
    return id;
  };

  const ruleDfa = (name: string): ByteDfa | null => {
    if (built.has(name)) return built.get(name)!;
    const key = keys.keyOf(name);
    const hit = key === null ? undefined : ruleCache.get(key);
    let dfa: ByteDfa | null;
    if (hit !== undefined) {
      if (hit.dfa !== null) budget.checkStates(hit.dfa.numStates, `rule '${name}'`);
      dfa = hit.dfa === null ? null : withCallees(hit.dfa, hit.callees.map((callee) => localCallee(name, callee)));
      sharedOf.set(name, hit);
    } else {
      /** Per call column id: what the shared automaton stores it as. */
      const calleeKeys = new Map<number, string | null>();
      const resolve = (leaf: Leaf): ByteDfa | number | null => {
        const target = resolveLeaf(name, leaf);
        if (typeof target === "number") calleeKeys.set(target, keys.leafKey(leaf));
        return target;
      };
      dfa = compileExpr(grammar.rules.get(name)!, budget, `rule '${name}'`, { resolve });
      if (key !== null) {
        const entry: CachedRule = { dfa, callees: Array.from(dfa?.callees ?? [], (id) => calleeKeys.get(id)!) };
        ruleCache.set(key, entry);
        sharedOf.set(name, entry);
      }
    }
    built.set(name, dfa);
    return dfa;
  };

  /** A leaf of rule `name` as an automaton to inline or a rule id to call (null: empty). */
  const resolveLeaf = (name: string, leaf: Leaf): ByteDfa | number | null => {
    if (leaf.kind === "jsonString") return stringRule(leaf);
    if (component.get(leaf.name) === component.get(name)) return idOf(leaf.name);
    const callee = ruleDfa(leaf.name);
    if (callee === null) return null;
    return callee.callees === undefined && callee.numStates <= INLINE_MAX_STATES ? callee : idOf(leaf.name);
  };

  /** The local rule id of a shared automaton's callee, found among the rule's own leaves. */
  const localCallee = (name: string, calleeKey: string): number => resolveLeaf(name, keys.leafByKey(name, calleeKey)) as number;

  const root = idOf(grammar.start);
  // Called rules, breadth-first from the root: inlined ones were built inside their callers.
  for (let id = 0; id < names.length; id++) {
    if (names[id].startsWith(STRING_RULE_PREFIX)) continue;
    dfas[id] = ruleDfa(names[id]);
  }
  const kept = removeUnproductiveCalls(dfas as (ByteDfa | LazyRule | null)[]);
  if (kept[root] === null) {
    throw new PocketExtractError("SCHEMA_UNSATISFIABLE", emptyMessage(grammar, names, kept, recursiveComponents.size > 0));
  }
  const n = names.length;
  const componentOf = new Int32Array(n);
  const head = new Uint8Array(n);
  const recursive = new Uint8Array(n);
  for (let id = 0; id < n; id++) {
    // String rules call nothing: any component id below every grammar rule's will do.
    componentOf[id] = component.get(names[id]) ?? -1;
    head[id] = heads.has(names[id]) ? 1 : 0;
    recursive[id] = recursiveComponents.has(componentOf[id]) ? 1 : 0;
  }
  // A shared rule's analysis is shared unless removing unproductive calls changed its automaton.
  const shared = kept.map((d, id) => {
    const entry = sharedOf.get(names[id]);
    return entry !== undefined && d !== null && !isLazyRule(d) && d.trans === entry.dfa?.trans ? entry : undefined;
  });
  // Unproductive rules are never called (their columns are gone): an empty stand-in keeps ids dense.
  return { dfas: kept.map((d) => d ?? EMPTY), names, root, component: componentOf, head, recursive, maxDepth, shared };
}

/**
 * Finished automata of non-recursive rules, shared process-wide by structural key (a bounded LRU;
 * automata are immutable): schemas share their number, string, whitespace and "any value" rules,
 * and a schema with verbatim fields recompiled for each document rebuilds only the document's
 * string. Call columns are stored as callee keys and mapped to each build's rule ids.
 */
const ruleCache = new LruCache<string, CachedRule>(4096);

interface CachedRule extends SharedTables {
  readonly dfa: ByteDfa | null;
  readonly callees: readonly string[];
}

/** Forgets every shared rule and string automaton (for cold-compile measurements, or to free
 *  memory); later builds rebuild what they need. */
export function clearSharedAutomata(): void {
  ruleCache.clear();
  JsonStrings.clearShared();
}

function withCallees(dfa: ByteDfa, callees: readonly number[]): ByteDfa {
  return callees.length === 0 ? dfa : { ...dfa, callees: Int32Array.from(callees) };
}

/** Names of string rules; no grammar rule name can start with a space. */
const STRING_RULE_PREFIX = " string ";

const EMPTY: ByteDfa = { numStates: 0, start: 0, numClasses: 1, classOf: new Uint8Array(256), trans: new Int32Array(0), accepting: new Uint8Array(0) };

/**
 * A rule is productive when some path from its start reaches acceptance using bytes and calls of
 * productive rules (least fixpoint). Calls of unproductive rules are removed and the callers
 * re-finished, which may empty them in turn.
 */
function removeUnproductiveCalls(dfas: (ByteDfa | LazyRule | null)[]): (ByteDfa | LazyRule | null)[] {
  const out = [...dfas];
  for (;;) {
    const productive = productiveRules(out);
    let changed = false;
    for (let id = 0; id < out.length; id++) {
      const dfa = out[id];
      if (dfa === null) continue;
      if (!productive[id]) {
        out[id] = null;
        changed = true;
        continue;
      }
      if (isLazyRule(dfa)) continue;
      const callees = dfa.callees;
      if (callees === undefined || callees.every((c) => productive[c])) continue;
      const first = dfa.numClasses - callees.length;
      const trans = dfa.trans.slice();
      for (let s = 0; s < dfa.numStates; s++) {
        for (let i = 0; i < callees.length; i++) if (!productive[callees[i]]) trans[s * dfa.numClasses + first + i] = -1;
      }
      out[id] = finish({ ...dfa, trans });
      changed = true;
    }
    if (!changed) return out;
  }
}

function productiveRules(dfas: readonly (ByteDfa | LazyRule | null)[]): Uint8Array {
  const productive = new Uint8Array(dfas.length);
  for (let changed = true; changed; ) {
    changed = false;
    for (let id = 0; id < dfas.length; id++) {
      const dfa = dfas[id];
      if (productive[id] || dfa === null) continue;
      // Lazy rules are only made for non-empty languages.
      if (isLazyRule(dfa) || reachesAccept(dfa, productive)) {
        productive[id] = 1;
        changed = true;
      }
    }
  }
  return productive;
}

function reachesAccept(dfa: ByteDfa, productive: Uint8Array): boolean {
  const { numClasses: k, trans, callees } = dfa;
  const first = k - (callees?.length ?? 0);
  const seen = new Uint8Array(dfa.numStates);
  const stack = [dfa.start];
  seen[dfa.start] = 1;
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (dfa.accepting[s]) return true;
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c];
      if (t < 0 || seen[t] || (c >= first && !productive[callees![c - first]])) continue;
      seen[t] = 1;
      stack.push(t);
    }
  }
  return false;
}

function emptyMessage(grammar: Grammar, names: readonly string[], dfas: readonly unknown[], recursive: boolean): string {
  if (!recursive) return `the grammar (start rule '${grammar.start}') accepts no text`;
  const cut = names.filter((_, id) => dfas[id] === null).map((n) => `'${n}'`);
  return `recursion with no base case in rule ${cut.join(", ")}: no text is accepted`;
}

/** A verbatim spec with nothing but the substring condition (substrings are never empty). */
function isPlainVerbatim(spec: JsonStringSpec): spec is JsonStringSpec & { substringOf: string } {
  return (
    spec.substringOf !== undefined &&
    spec.minLength <= 1 &&
    spec.maxLength === Infinity &&
    spec.pattern === undefined &&
    (spec.exclude ?? []).length === 0 &&
    (spec.excludePatterns ?? []).length === 0
  );
}

/** Characters from which a length-only string is computed rather than built (a built one needs
 *  ~14 states per character, over the inlining limit from here on). */
const LAZY_LENGTH_FROM = 4;

/** A string whose only condition is a long enough length bound. */
function isLongLengthOnly(spec: JsonStringSpec): boolean {
  return (
    spec.substringOf === undefined &&
    spec.pattern === undefined &&
    (spec.exclude ?? []).length === 0 &&
    (spec.excludePatterns ?? []).length === 0 &&
    (spec.maxLength === Infinity ? spec.minLength : spec.maxLength) >= LAZY_LENGTH_FROM
  );
}
