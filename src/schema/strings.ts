/**
 * String subschemas: `minLength`/`maxLength` (code points), `pattern`, and `format` for the
 * formats in grammars/*.gbnf. A known format is enforced by its grammar rule; length bounds or a
 * pattern next to a format are then checked after decoding (the IR cannot intersect them).
 * Unknown formats are annotations. In extraction mode an unbounded string gets
 * `defaultMaxStringLength`.
 */

import { SchemaError } from "../errors.js";
import { jsonString, lit, type Expr } from "../grammar/ir.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { KNOWN_FORMATS } from "./keywords.js";
import { checkPattern } from "./patterns.js";
import type { JsonSchemaObject } from "./types.js";

const FORMAT_FILES: Record<string, string> = {
  date: "datetime", time: "datetime", "date-time": "datetime", duration: "datetime",
  email: "network", ipv4: "network", ipv6: "network", hostname: "network",
  uri: "uri", "uri-reference": "uri", uuid: "uuid",
};

export function nonNegativeInt(node: JsonSchemaObject, keyword: string, pointer: string): number | undefined {
  const v = node[keyword];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    // Draft 2019+ allows 5.0 for 5; Number.isInteger covers that.
    throw new SchemaError("SCHEMA_INVALID", `${keyword} must be a non-negative integer`, { keyword, pointer });
  }
  return v;
}

export function compileString(ctx: CompileContext, node: JsonSchemaObject, pointer: string): Expr | null {
  const minLength = nonNegativeInt(node, "minLength", pointer) ?? 0;
  let maxLength = nonNegativeInt(node, "maxLength", pointer) ?? Infinity;
  if (minLength > maxLength) return ctx.unsat(`minLength ${minLength} > maxLength ${maxLength}`, "minLength", pointer);
  const format = node.format;
  if (format !== undefined && typeof format !== "string") throw new SchemaError("SCHEMA_INVALID", "format must be a string", { keyword: "format", pointer });
  if (format !== undefined && KNOWN_FORMATS.has(format)) {
    // The pattern is not compiled here (Zod writes look-aheads into e.g. its email pattern);
    // the verify step checks it, with the lengths, after decoding.
    if (node.pattern !== undefined && typeof node.pattern !== "string") throw new SchemaError("SCHEMA_INVALID", "a pattern must be a string", { keyword: "pattern", pointer });
    for (const k of ["minLength", "maxLength", "pattern"]) {
      if (k in node) ctx.report.set(pointer, k, "validatedAfter", `format "${format}" is enforced; ${k} is checked after decoding`);
    }
    return cat(lit('"'), ctx.library(FORMAT_FILES[format], format), lit('"'));
  }
  const pattern = node.pattern === undefined ? undefined : checkPattern(node.pattern, "pattern", pointer);
  if (format !== undefined) ctx.report.set(pointer, "format", "annotation", `unknown format "${format}", not checked`);
  const source = isVerbatim(node) ? ctx.options.verbatimSource : undefined;
  // The text already bounds a verbatim value; a counter on top would multiply its automaton.
  if (ctx.extraction && maxLength === Infinity && source === undefined) maxLength = Math.max(minLength, ctx.options.defaultMaxStringLength);
  if (source !== undefined) ctx.report.set(pointer, VENDOR_KEY, "enforced", "verbatim: only substrings of the source text");
  return jsonString({ minLength, maxLength, pattern, ...(source !== undefined ? { substringOf: source } : {}) });
}

/** The vendor keyword of pocket-extract annotations (shared with verify's `derived`). */
const VENDOR_KEY = "x-pocket";

function isVerbatim(node: JsonSchemaObject): boolean {
  const mark = node[VENDOR_KEY];
  return typeof mark === "object" && mark !== null && (mark as { verbatim?: unknown }).verbatim === true;
}
