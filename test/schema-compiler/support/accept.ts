/**
 * Test helpers: compile a schema and get acceptors for it through both the byte automaton and
 * the reference matcher, so every test checks both and they are checked against each other.
 */

import { acceptsText, buildAutomaton } from "../../../src/automaton/index.js";
import { compileSchema, type CompileOptions } from "../../../src/schema-compiler/index.js";
import { matches } from "./matcher.js";

export interface Acceptor {
  /** Byte automaton verdict. */
  readonly dfa: (text: string) => boolean;
  /** Reference matcher verdict. */
  readonly ref: (text: string) => boolean;
}

export function acceptor(schema: unknown, options: CompileOptions = {}): Acceptor {
  const compiled = compileSchema(schema, options);
  const dfa = buildAutomaton(compiled.grammar, { maxRecursionDepth: compiled.options.maxRecursionDepth });
  return { dfa: (t) => acceptsText(dfa, t), ref: (t) => matches(compiled.grammar, t, 2 * compiled.options.maxRecursionDepth + 16) };
}

/**
 * Instance keys reordered to the order the grammar writes them: names in the order the schema
 * first mentions them (properties, required, dependency names, const/enum objects), then the
 * rest as they were.
 */
export function schemaKeyOrder(schema: unknown): Map<string, number> {
  const rank = new Map<string, number>();
  const add = (k: string): void => {
    if (!rank.has(k)) rank.set(k, rank.size);
  };
  const visit = (node: unknown, inSchema: boolean): void => {
    if (Array.isArray(node)) {
      for (const x of node) visit(x, inSchema);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const o = node as Record<string, unknown>;
    if (inSchema && typeof o.properties === "object" && o.properties !== null) for (const k of Object.keys(o.properties)) add(k);
    if (inSchema && Array.isArray(o.required)) for (const k of o.required) if (typeof k === "string") add(k);
    // Names the dependency keywords mention: each entry's names before its key (dependencies.ts).
    for (const deps of inSchema ? [o.dependencies, o.dependentRequired, o.dependentSchemas] : []) {
      if (typeof deps !== "object" || deps === null) continue;
      for (const [k, v] of Object.entries(deps)) {
        const needed = Array.isArray(v) ? v : typeof v === "object" && v !== null && Array.isArray((v as { required?: unknown }).required) ? (v as { required: unknown[] }).required : [];
        for (const n of needed) if (typeof n === "string") add(n);
        add(k);
      }
    }
    if (!inSchema) for (const k of Object.keys(o)) add(k);
    for (const [k, v] of Object.entries(o)) visit(v, inSchema && k !== "const" && k !== "enum" && k !== "default" && k !== "examples");
  };
  visit(schema, true);
  return rank;
}

export function reorder(value: unknown, rank: ReadonlyMap<string, number>): unknown {
  if (Array.isArray(value)) return value.map((v) => reorder(v, rank));
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const known = entries.filter(([k]) => rank.has(k)).sort((a, b) => rank.get(a[0])! - rank.get(b[0])!);
  const rest = entries.filter(([k]) => !rank.has(k));
  return Object.fromEntries([...known, ...rest].map(([k, v]) => [k, reorder(v, rank)]));
}

/** Keys reordered by walking the schema alongside the value (properties/items only, no refs). */
export function orderBySchema(value: unknown, schema: unknown): unknown {
  const s = (typeof schema === "object" && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(value)) return value.map((v) => orderBySchema(v, s.items));
  if (typeof value !== "object" || value === null) return value;
  const props = (typeof s.properties === "object" && s.properties !== null ? s.properties : {}) as Record<string, unknown>;
  const v = value as Record<string, unknown>;
  const declared = Object.keys(props).filter((k) => k in v);
  const rest = Object.keys(v).filter((k) => !(k in props));
  return Object.fromEntries([...declared, ...rest].map((k) => [k, orderBySchema(v[k], props[k])]));
}
