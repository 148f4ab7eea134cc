/**
 * `const` and `enum`: a JSON value written as grammar. Primitives are their canonical
 * `JSON.stringify` text (so unicode stays as-is and only the escapes JSON requires are used);
 * arrays and objects keep their element and key order, with the format's whitespace between tokens.
 */

import { lit, type Expr } from "../grammar/ir.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";

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
  return lit(JSON.stringify(value));
}

/** The JSON Schema type names a value belongs to ("integer" values are also "number"). */
export function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}
