/**
 * Hostile schema shapes from issue 15, shared by the hostile tests and bench/post-decode.bench.ts.
 */
type Schema = Record<string, unknown>;

/** `$defs` chain: each level `anyOf: [{$ref: next}, {$ref: next, description}]` (doubles per level). */
export function anyOfChain(depth: number): Schema {
  return refChain("anyOf", depth);
}

/** `$defs` chain of `allOf: [{$ref: next}, {$ref: next, description}]`. */
export function allOfChain(depth: number): Schema {
  return refChain("allOf", depth);
}

function refChain(keyword: "anyOf" | "allOf", depth: number): Schema {
  const $defs: Schema = {};
  for (let i = 0; i < depth; i++) {
    const next = i + 1 < depth ? { $ref: `#/$defs/d${i + 1}` } : { type: "string", maxLength: 5 };
    $defs[`d${i}`] = { [keyword]: [next, { ...next, description: `level ${i}` }] };
  }
  return { type: "object", properties: { v: { $ref: "#/$defs/d0" } }, required: ["v"], $defs };
}

/** An object of `n` optional string properties (`inner`, when given, nested as one more). */
export function wideObject(n: number, inner?: Schema): Schema {
  const properties: Schema = {};
  for (let i = 0; i < n; i++) properties[`field_${i}`] = { type: "string", maxLength: 8 };
  if (inner) properties.inner = inner;
  return { type: "object", properties };
}

/** Objects nested `depth` deep, each with one optional property `a` around the next. */
export function deepObject(depth: number): Schema {
  let s: Schema = { type: "string", maxLength: 8 };
  for (let i = 0; i < depth; i++) s = { type: "object", properties: { a: s, b: { type: "integer" } } };
  return s;
}

/** The deepest anyOf chain `accepts` takes (it throws for deeper ones), searched upward from 1
 *  to `cap` (returned when every depth up to it is accepted). */
export function deepestAcceptedChain(accepts: (schema: Schema) => void, cap = 24): number {
  let depth = 1;
  while (depth < cap) {
    try {
      accepts(anyOfChain(depth + 1));
    } catch {
      return depth;
    }
    depth++;
  }
  return cap;
}

/** A wide object value for `wideObject(n)`'s first `present` fields, every other one null. */
export function wideValue(present: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (let i = 0; i < present; i++) value[`field_${i}`] = i % 2 === 0 ? null : `v${i}`;
  return value;
}
