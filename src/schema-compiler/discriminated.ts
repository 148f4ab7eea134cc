/**
 * allOf parts that are only `if`/`then`/`else` on one discriminating property: every `if` is
 * `{properties: {d: {const: v_i}}}` (optionally with `required: [d]`), the same d, distinct
 * values. Rewritten one by one they multiply out to 2^n alternatives; since at most one value
 * can be d's, they are exactly n + 3:
 *   not an object: every part's `then` (its `if` holds, `required` included);
 *   d absent: each part's `then`, or its `else` where its `if` requires d;
 *   d is v_i: then_i and every other part's else (type object, d required);
 *   d is none of the values: every part's else.
 * A missing `then`/`else` is `true`.
 */

import { isRecord, jsonEqual, type JsonSchema } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { CONDITIONAL, REWRITTEN } from "./conditional.js";

interface Case {
  readonly part: object;
  readonly value: unknown;
  /** The `if` also requires d: when d is absent it fails, and `else` applies. */
  readonly requires: boolean;
  readonly then: JsonSchema;
  readonly else: JsonSchema;
}

/** The discriminator and value of an `if` part of the shape above, or undefined. */
function caseOf(part: unknown): (Case & { readonly name: string }) | undefined {
  if (!isRecord(part) || !("if" in part) || Object.keys(part).some((k) => k !== "if" && k !== "then" && k !== "else")) return undefined;
  const condition = part.if;
  if (!isRecord(condition) || !isRecord(condition.properties)) return undefined;
  const keys = Object.keys(condition);
  const names = Object.keys(condition.properties);
  if (names.length !== 1 || keys.some((k) => k !== "properties" && k !== "required")) return undefined;
  const name = names[0]!;
  const required = condition.required;
  if (required !== undefined && !(Array.isArray(required) && required.length === 1 && required[0] === name)) return undefined;
  const property = condition.properties[name];
  if (!isRecord(property) || Object.keys(property).length !== 1 || !("const" in property)) return undefined;
  const branch = (s: unknown): JsonSchema => (s === undefined ? true : (s as JsonSchema));
  return { part, name, value: property.const, requires: required !== undefined, then: branch(part.then), else: branch(part.else) };
}

/**
 * `parts` with the discriminated conditionals (at least MIN_GROUP on one name) replaced by their
 * n + 3 alternatives, and their keywords reported enforced; the other parts as they are.
 */
export function discriminatedConditionals(ctx: CompileContext, parts: readonly JsonSchema[], pointer: string): JsonSchema[] {
  if (!ctx.conditionals) return [...parts];
  const byName = new Map<string, (Case & { readonly name: string })[]>();
  for (const part of parts) {
    const c = caseOf(part);
    if (c !== undefined) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  }
  const grouped = [...byName].filter(([, cases]) => cases.length >= MIN_GROUP && cases.every((c, i) => cases.slice(0, i).every((d) => !jsonEqual(c.value, d.value))));
  if (grouped.length === 0) return [...parts];
  const alternatives = new Map<object, JsonSchema>();
  for (const [name, cases] of grouped) {
    for (const c of cases) for (const k of CONDITIONAL) if (k in c.part) ctx.report.verdict(c.part, k, true, REWRITTEN, pointer);
    // Not an object: every `if` holds (`required` too says nothing of other types).
    const nonObject: JsonSchema = { type: ["null", "boolean", "number", "string", "array"], allOf: cases.map((c) => c.then) };
    const absent: JsonSchema = { type: "object", properties: { [name]: false }, allOf: cases.map((c) => (c.requires ? c.else : c.then)) };
    const matched = cases.map((c): JsonSchema => ({ type: "object", required: [name], properties: { [name]: { const: c.value } }, allOf: [c.then, ...cases.filter((o) => o !== c).map((o) => o.else)] }));
    const other: JsonSchema = { type: "object", required: [name], properties: { [name]: { not: { enum: cases.map((c) => c.value) } } }, allOf: cases.map((c) => c.else) };
    // In the place of the group's first part (parts merge left to right: the property order).
    alternatives.set(cases[0]!.part, { anyOf: [nonObject, absent, ...matched, other] });
    for (const c of cases.slice(1)) alternatives.set(c.part, true);
  }
  return parts.map((p) => (typeof p === "object" ? (alternatives.get(p) ?? p) : p));
}

/** Fewer conditionals than this are rewritten one by one (conditional.ts) as before. */
const MIN_GROUP = 3;
