/**
 * Structural keys of grammar rules, for sharing built automata across grammars: two rules with
 * equal keys have equal automata whatever their names. A rule's key is its expression with each
 * reference replaced by the referenced rule's key id (interned, so keys do not nest) and each
 * string by its spec. Verbatim strings are keyed by their shortest value, not their text: callers
 * depend on nothing else, because a verbatim string is always called (rule-automata.ts). A
 * distinct array's key says so (see keyOf). Rules in recursive components
 * have no key (their automata depend on their cycle): neither do rules that reference them.
 */
import type { Expr, Grammar } from "../../grammar/index.js";
import { LruCache } from "../../util/index.js";
import { JsonStrings, shortestVerbatimValue, type JsonStringSpec } from "../strings/index.js";
import type { Leaf } from "../fsa/index.js";

/** Key -> id, process-wide. Ids are never reused, so an evicted key can never be confused. */
const keyIds = new LruCache<string, number>(8192);
let nextKeyId = 0;

function internKey(key: string): number {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = nextKeyId++;
    keyIds.set(key, id);
  }
  return id;
}

export class StructuralKeys {
  private readonly keys = new Map<string, string | null>();
  /** leafKey of references, per target rule (interning a long key costs its length). */
  private readonly refKeys = new Map<string, string | null>();
  /** Per rule: its leaves by leaf key (see leafByKey). */
  private readonly leavesOf = new Map<string, Map<string, Leaf>>();

  constructor(
    private readonly grammar: Grammar,
    private readonly isRecursive: (name: string) => boolean,
  ) {}

  /** The rule's key; null when it has none. */
  private keyOf(name: string): string | null {
    if (this.keys.has(name)) return this.keys.get(name)!;
    let key = this.isRecursive(name) ? null : this.serialize(this.grammar.rules.get(name)!);
    // A distinct array is always called (rule-automata.ts) where the same text otherwise may be
    // inlined: its callers' automata differ, so its key must.
    if (key !== null && this.grammar.distinctArrays?.has(name) === true) key = `distinct ${key}`;
    this.keys.set(name, key);
    return key;
  }

  /** An expression as text, leaves as their keys; null when a leaf has none. */
  private serialize(e: Expr): string | null {
    switch (e.kind) {
      case "lit":
        return JSON.stringify(e.text);
      case "chars":
        return `[${e.ranges.join(" ")}]`;
      case "seq":
      case "alt": {
        let out = e.kind === "seq" ? "(" : "{";
        for (const item of e.items) {
          const inner = this.serialize(item);
          if (inner === null) return null;
          out += `${inner},`;
        }
        return out + (e.kind === "seq" ? ")" : "}");
      }
      case "repeat": {
        const inner = this.serialize(e.item);
        return inner === null ? null : `${inner}{${e.min},${e.max}}`;
      }
      case "ref":
      case "jsonString":
        return this.leafKey(e);
    }
  }

  /** What a call of this leaf is stored as in a shared automaton (see rule-automata.ts). */
  leafKey(leaf: Leaf): string | null {
    return leaf.kind === "jsonString" ? stringKey(leaf) : this.refKey(leaf.name);
  }

  /** The rule's key as a short interned id (equal ids, equal keys); null when it has none. */
  refKey(name: string): string | null {
    let refKey = this.refKeys.get(name);
    if (refKey === undefined) {
      const key = this.keyOf(name);
      refKey = key === null ? null : `r${internKey(key)}`;
      this.refKeys.set(name, refKey);
    }
    return refKey;
  }

  /** The reference or string in rule `name` whose leaf key is `key` (it must exist; the first
   *  one when several share it). */
  leafByKey(name: string, key: string): Leaf {
    let leaves = this.leavesOf.get(name);
    if (leaves === undefined) {
      // Once per rule: a shared rule's every call column is looked up here.
      const byKey = new Map<string, Leaf>();
      forEachLeaf(this.grammar.rules.get(name)!, (leaf) => {
        const leafKey = this.leafKey(leaf);
        if (leafKey !== null && !byKey.has(leafKey)) byKey.set(leafKey, leaf);
      });
      this.leavesOf.set(name, (leaves = byKey));
    }
    const found = leaves.get(key);
    if (found === undefined) throw new Error(`internal: no reference with key ${key} in rule '${name}'`);
    return found;
  }
}

const stringKeys = new WeakMap<JsonStringSpec, string>();

/** A string leaf's key: an interned id, so that rule keys stay short whatever the spec's size. */
function stringKey(spec: JsonStringSpec): string {
  let key = stringKeys.get(spec);
  if (key === undefined) stringKeys.set(spec, (key = computeStringKey(spec)));
  return key;
}

function computeStringKey(spec: JsonStringSpec): string {
  if (spec.substringOf === undefined) return `s${internKey(JsonStrings.keyOf(spec))}`;
  // A plain verbatim string (no bounds, no pattern) changes its callers only through its
  // shortest value (their distances; none at all: no string). Other verbatim strings are keyed
  // by their text: what their bounds leave of it is only known once built.
  const plain = spec.minLength <= 1 && spec.maxLength === Infinity && spec.pattern === undefined && !spec.exclude?.length && !spec.excludePatterns?.length;
  if (!plain) return `s${internKey(JsonStrings.keyOf(spec))}`;
  return `v${shortestVerbatimValue(spec.substringOf)}:${internKey(JsonStrings.keyOf({ ...spec, substringOf: "" }))}`;
}

/** Calls `visit` on each reference and string of an expression, in order. */
function forEachLeaf(expr: Expr, visit: (leaf: Leaf) => void): void {
  switch (expr.kind) {
    case "ref":
    case "jsonString":
      visit(expr);
      return;
    case "seq":
    case "alt":
      for (const item of expr.items) forEachLeaf(item, visit);
      return;
    case "repeat":
      forEachLeaf(expr.item, visit);
      return;
    default:
      return;
  }
}
