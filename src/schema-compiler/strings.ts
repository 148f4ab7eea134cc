/**
 * String subschemas: `minLength`/`maxLength` (code points), `pattern`, and `format` for the
 * formats in grammars/*.gbnf. A known format is enforced by its grammar rule; length bounds or a
 * pattern next to a format are then checked after decoding (the IR cannot intersect them).
 * Unknown formats are annotations. In extraction mode an unbounded string gets
 * `defaultMaxStringLength`.
 */

import { jsonString, lit, type Expr } from "../grammar/index.js";
import { KNOWN_FORMATS, keywordsWhere, VENDOR_KEY, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { checkPattern } from "./patterns.js";

const FORMAT_FILES: Record<string, string> = {
  date: "datetime", time: "datetime", "date-time": "datetime", duration: "datetime",
  email: "network", ipv4: "network", ipv6: "network", hostname: "network",
  uri: "uri", "uri-reference": "uri", uuid: "uuid",
};

/** The string keywords besides `format` (a format's grammar cannot intersect them). */
const BESIDE_FORMAT = keywordsWhere((s, k) => s.instance === "string" && k !== "format");

export function compileString(ctx: CompileContext, node: SchemaNode): Expr | null {
  const pointer = node.pointer;
  const minLength = node.get("minLength") ?? 0;
  let maxLength = node.get("maxLength") ?? Infinity;
  if (minLength > maxLength) return ctx.unsat(`minLength ${minLength} > maxLength ${maxLength}`, "minLength", pointer);
  const format = node.get("format");
  if (format !== undefined && KNOWN_FORMATS.has(format)) {
    // The pattern is not compiled here (Zod writes look-aheads into e.g. its email pattern);
    // the verify step checks it, with the lengths, after decoding.
    node.get("pattern"); // a malformed pattern is refused all the same
    for (const k of BESIDE_FORMAT) {
      if (node.has(k)) ctx.report.set(pointer, k, "validatedAfter", `format "${format}" is enforced; ${k} is checked after decoding`);
    }
    return cat(lit('"'), ctx.library(FORMAT_FILES[format]!, format), lit('"'));
  }
  const written = node.get("pattern");
  const pattern = written === undefined ? undefined : checkPattern(written, "pattern", pointer);
  if (format !== undefined) ctx.report.set(pointer, "format", "annotation", `unknown format "${format}", not checked`);
  const source = isVerbatim(node.raw[VENDOR_KEY]) ? ctx.options.verbatimSource : undefined;
  // The text already bounds a verbatim value; a counter on top would multiply its automaton.
  if (ctx.extraction && maxLength === Infinity && source === undefined) maxLength = Math.max(minLength, ctx.options.defaultMaxStringLength);
  if (source !== undefined) ctx.report.set(pointer, VENDOR_KEY, "enforced", "verbatim: only substrings of the source text");
  return jsonString({ minLength, maxLength, pattern, ...(source !== undefined ? { substringOf: source } : {}) });
}

/** The vendor mark `{"verbatim": true}`: the value is a substring of the source text. */
function isVerbatim(mark: unknown): boolean {
  return typeof mark === "object" && mark !== null && (mark as { verbatim?: unknown }).verbatim === true;
}
