/**
 * Builds the compile report. A first pass classifies every keyword of every subschema with the
 * keyword table's default; the compiler then overrides entries where it knows better (keyed by
 * pointer + keyword, so an override replaces rather than duplicates).
 *
 * `oneOf` and `not` are judged per use while compiling (a proof of disjoint branches, an exact
 * rewriting), often on nodes the compiler built by copying or merging input nodes. The builder
 * therefore remembers each input node's pointer and which nodes each built node came from, so a
 * verdict lands on the input occurrences of the keyword. Keywords of definitions no reference
 * reaches are left out of the report (reachable.ts).
 */

import { defaultClass, forEachSubschema, isRecord, type KeywordClass } from "../schema/index.js";
import { reachableSubschemas } from "./reachable.js";
import { LoggedMap, LoggedSet, type UndoLog } from "./undo-log.js";
import type { CompileReport, KeywordUse } from "./types.js";

const key = (pointer: string, keyword: string): string => `${pointer}\u0000${keyword}`;
const afterKey = (pointer: string, keyword: string): string => `${key(pointer, keyword)}\u0000after`;

export class ReportBuilder {
  private readonly entries: Map<string, { cls: KeywordClass; use: KeywordUse }>;
  /** Input schema nodes by identity, with their pointers. */
  private readonly origins = new WeakMap<object, string>();
  /** Built nodes and the nodes their keywords were taken from. */
  private readonly sources = new WeakMap<object, object[]>();
  /** Occurrences with an inexact use: one is enough, so no later exact verdict upgrades them. */
  private readonly inexact: Set<string>;
  /** The input schema classifyAll classified. */
  private root: unknown;

  /** `undo` records the changes to entries and inexact uses (CompileContext.checkpoint rolls
   *  them back); derivations stay, they only describe built nodes. */
  constructor(undo: UndoLog) {
    this.entries = new LoggedMap(undo);
    this.inexact = new LoggedSet(undo);
  }

  set(pointer: string, keyword: string, cls: KeywordClass, note?: string): void {
    this.entries.set(key(pointer, keyword), { cls, use: note === undefined ? { keyword, pointer } : { keyword, pointer, note } });
  }

  /** The class of a keyword occurrence's main entry so far. */
  classOf(pointer: string, keyword: string): KeywordClass | undefined {
    return this.entries.get(key(pointer, keyword))?.cls;
  }

  /** A second entry for a keyword that is enforced in part and checked after decoding in part. */
  alsoAfter(pointer: string, keyword: string, note: string): void {
    this.entries.set(afterKey(pointer, keyword), { cls: "validatedAfter", use: { keyword, pointer, note } });
  }

  /** Records that the compiler built `node` from `from` (a normalized copy, a merge, a part). */
  derive(node: object, ...from: unknown[]): void {
    const list = this.sources.get(node) ?? [];
    for (const f of from) if (typeof f === "object" && f !== null && f !== node && !list.includes(f)) list.push(f);
    if (list.length > 0) this.sources.set(node, list);
  }

  /**
   * A verdict on one use of `keyword` (oneOf, not, if/then/else, minProperties, dependencies...) in `node`. Exact: its input occurrences
   * become enforced (the after-decoding entry goes), unless another use was inexact. Inexact: they
   * keep an after-decoding entry for good (the main entry when it is one already), on `fallback`
   * when the keyword has no input occurrence.
   */
  verdict(node: object, keyword: string, exact: boolean, note: string, fallback: string): void {
    const owners = this.ownersOf(node, keyword);
    if (!exact) {
      for (const p of owners.length > 0 ? owners : [fallback]) {
        this.inexact.add(key(p, keyword));
        if (this.entries.get(key(p, keyword))?.cls !== "validatedAfter") this.alsoAfter(p, keyword, note);
      }
      return;
    }
    for (const p of owners) {
      if (this.inexact.has(key(p, keyword))) continue;
      this.set(p, keyword, "enforced", note);
      this.entries.delete(afterKey(p, keyword));
    }
  }

  /** Pointers of the input nodes that `node`'s `keyword` came from (following built nodes back). */
  private ownersOf(node: object, keyword: string): string[] {
    const out: string[] = [];
    const seen = new Set<object>();
    const visit = (n: object): void => {
      if (seen.has(n) || !Object.prototype.hasOwnProperty.call(n, keyword)) return;
      seen.add(n);
      const p = this.origins.get(n);
      if (p !== undefined) out.push(p);
      for (const s of this.sources.get(n) ?? []) visit(s);
    };
    visit(node);
    return out;
  }

  /** Classifies every keyword reachable from `root` (visiting each schema object once). */
  classifyAll(root: unknown, legacyRefs: boolean): void {
    this.root = root;
    forEachSchemaObject(root, (node, ptr) => {
      this.origins.set(node, ptr);
      const refSiblingsIgnored = legacyRefs && "$ref" in node;
      for (const k of Object.keys(node)) {
        if (refSiblingsIgnored && k !== "$ref" && k !== "$defs" && k !== "definitions") {
          this.set(ptr, k, "annotation", "ignored beside $ref (draft 7 and earlier)");
          continue;
        }
        const { cls, note } = defaultClass(k);
        this.set(ptr, k, cls, note);
      }
      if ("oneOf" in node) {
        // Until a compile-time proof shows the branches disjoint (see exclusive.ts).
        this.set(ptr, "oneOf", "enforced", "as anyOf");
        this.alsoAfter(ptr, "oneOf", "exactly-one-branch is checked after decoding");
      }
      if ("format" in node && !legacyRefs) {
        this.set(ptr, "format", "enforced", "asserted by the grammar (stricter than draft 2019-09+, where format is an annotation by default)");
      }
    });
  }

  /** The report, without the keywords of subschemas no instance can meet (reachable.ts). */
  build(): CompileReport {
    const entries = [...this.entries.values()];
    // Only a keyword checked after decoding changes what the report says of the schema: the
    // reachability walk is for those schemas alone.
    const unreached = entries.some((e) => e.cls === "validatedAfter") ? this.unreachedPointers() : new Set<string>();
    const out: Record<KeywordClass, KeywordUse[]> = { enforced: [], validatedAfter: [], annotation: [] };
    for (const { cls, use } of entries) if (!unreached.has(use.pointer)) out[cls].push(use);
    return { enforced: out.enforced, validatedAfter: out.validatedAfter, annotations: out.annotation };
  }

  /** Pointers of the input schema's objects no instance can meet (none when that is undecided). */
  private unreachedPointers(): Set<string> {
    const unreached = new Set<string>();
    const reached = reachableSubschemas(this.root);
    if (reached !== undefined) forEachSchemaObject(this.root, (node, ptr) => !reached.has(node) && unreached.add(ptr));
    return unreached;
  }
}

/** Calls `visit` with each schema object under `root` once, with the pointer of the first path found to it. */
function forEachSchemaObject(root: unknown, visit: (node: Record<string, unknown>, ptr: string) => void): void {
  const seen = new Set<object>();
  const stack: [unknown, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [node, ptr] = stack.pop()!;
    if (!isRecord(node) || seen.has(node)) continue;
    seen.add(node);
    visit(node, ptr);
    forEachSubschema(node, ptr, (child, childPtr) => stack.push([child, childPtr]));
  }
}
