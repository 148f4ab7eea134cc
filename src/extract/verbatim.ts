/**
 * Verbatim fields: string fields whose value must be copied from the text. Marked with
 * `"x-pocket": { "verbatim": true }` in the JSON Schema (zod: `verbatim(z.string())`, which sets
 * that through `.meta()`), their grammar is the set of substrings of the document, compiled per
 * document, so the model cannot write anything the text does not contain.
 */

/** Marks a Zod string schema as verbatim. Zod v4 only (`.meta()`); returns a new schema. */
export function verbatim<S extends { meta(data: Record<string, unknown>): S }>(schema: S): S {
  return schema.meta({ "x-pocket": { verbatim: true } });
}

/** True when some subschema carries the verbatim mark (then grammars depend on the text). */
export function hasVerbatimFields(schema: unknown): boolean {
  const seen = new Set<object>();
  const visit = (node: unknown): boolean => {
    if (typeof node !== "object" || node === null || seen.has(node)) return false;
    seen.add(node);
    const mark = (node as Record<string, unknown>)["x-pocket"];
    if (typeof mark === "object" && mark !== null && (mark as { verbatim?: unknown }).verbatim === true) return true;
    return Object.values(node).some(visit);
  };
  return visit(schema);
}
