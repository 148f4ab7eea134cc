/**
 * `const` and `enum`: a JSON value written as grammar. Primitives are their canonical
 * `JSON.stringify` text (so unicode stays as-is and only the escapes JSON requires are used),
 * numbers in JSON Schema mode also with zeros after their last digit (2.0 and 1.50 are the values
 * 2 and 1.5; at most FRACTION_ZEROS of them; extraction mode keeps the canonical text); arrays
 * and objects keep their element and key order, with the format's whitespace between tokens.
 */

import { lit, repeat, type Expr } from "../grammar/index.js";
import { isAnnotationKeyword, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { Evaluator } from "./evaluate.js";
import { cat, union } from "./format.js";
import { FRACTION_ZEROS, zeroFractionExpr } from "./multiple-of.js";

/**
 * An `enum` (or `const`, normalized to one) node: its values of an allowed type that the sibling
 * keywords accept. The evaluator decides most keywords per value at compile time, which is exact;
 * a keyword it leaves undecided for a kept value is checked after decoding.
 */
export function compileEnum(ctx: CompileContext, node: SchemaNode, types: ReadonlySet<string> | undefined): Expr | null {
  const pointer = node.pointer;
  const values = node.get("enum") ?? [];
  const checks = node.keywords().filter((k) => k !== "enum" && k !== "type" && k !== "nullable" && !isAnnotationKeyword(k));
  const evaluator = new Evaluator(ctx, pointer);
  const undecided = new Set<string>();
  const allowed = values.filter((v) => {
    if (types !== undefined && !typesOf(v).some((t) => types.has(t))) return false;
    const verdicts = checks.map((k) => evaluator.keyword(node, k, v));
    if (verdicts.includes(false)) return false;
    checks.forEach((k, i) => {
      if (verdicts[i] === undefined) undecided.add(k);
    });
    return true;
  });
  // Inexact verdicts first: they are final, so the exact ones below cannot undo them.
  for (const k of checks) {
    if (k === "not") ctx.report.verdict(node.raw, k, !undecided.has(k), undecided.has(k) ? "undecided for an enum value; checked after decoding" : "decided for each enum value", pointer);
    else if (undecided.has(k)) ctx.report.set(pointer, k, "validatedAfter", "enum/const values are enforced; this keyword is checked after decoding");
  }
  for (const [n, k] of evaluator.judged) ctx.report.verdict(n, k, true, "decided for each enum value", pointer);
  if (allowed.length === 0) return ctx.unsat(values.length === 0 ? "enum is empty" : "no enum value satisfies the schema", "enum", pointer);
  return union(allowed.map((v) => valueExpr(ctx, v)));
}

export function valueExpr(ctx: CompileContext, value: unknown): Expr {
  if (Array.isArray(value)) {
    const parts: Expr[] = [ctx.punct("[")];
    value.forEach((v, i) => {
      if (i > 0) parts.push(ctx.punct(","));
      parts.push(valueExpr(ctx, v));
    });
    parts.push(ctx.punct("]"));
    return cat(...parts);
  }
  if (typeof value === "object" && value !== null) {
    const parts: Expr[] = [ctx.punct("{")];
    Object.entries(value).forEach(([k, v], i) => {
      if (i > 0) parts.push(ctx.punct(","));
      parts.push(lit(JSON.stringify(k)), ctx.punct(":"), valueExpr(ctx, v));
    });
    parts.push(ctx.punct("}"));
    return cat(...parts);
  }
  if (typeof value === "number") return ctx.extraction ? lit(JSON.stringify(value)) : numberExpr(value);
  return lit(JSON.stringify(value));
}

/** A number's canonical text, then the zeros that keep its value (none after an exponent). */
function numberExpr(value: number): Expr {
  const text = JSON.stringify(value);
  if (/e/i.test(text)) return lit(text);
  return cat(lit(text), Number.isInteger(value) ? zeroFractionExpr() : repeat(lit("0"), 0, FRACTION_ZEROS));
}

/** The JSON Schema type names a value belongs to ("integer" values are also "number"). */
export function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}
