/**
 * String subschemas: `minLength`/`maxLength` (code points), `pattern`, and `format` for the
 * formats in grammars/*.gbnf. A known format is enforced by its grammar rule; length bounds or a
 * pattern next to a format are then checked after decoding (the IR cannot intersect them).
 * A format JSON Schema defines but without a grammar is never reported as enforced: checked after
 * decoding where the validator knows it (regex, uri-template, ...), else reported as not
 * enforced (iri, iri-reference, idn-*). Other formats are annotations. In extraction mode an unbounded string gets
 * `defaultMaxStringLength`.
 */

import { jsonString, lit, type Expr } from "../grammar/index.js";
import { KNOWN_FORMATS, keywordsWhere, SPEC_FORMATS, VALIDATOR_FORMATS, VENDOR_KEY, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { checkPattern } from "./patterns.js";

const FORMAT_FILES: Record<string, string> = {
  date: "datetime", time: "datetime", "date-time": "datetime", duration: "datetime",
  email: "network", ipv4: "network", ipv6: "network", hostname: "network",
  uri: "network", "uri-reference": "network", uuid: "uuid",
};

/** The string keywords besides `format` (a format's grammar cannot intersect them). */
const BESIDE_FORMAT = keywordsWhere((s, k) => s.instance === "string" && k !== "format");

/** How a compile report's note on a format without grammar or validator begins (bench/support/evaluate.ts reads it). */
export const FORMAT_NOT_ENFORCED = "not enforced";

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
    if (format === "hostname") ctx.report.alsoAfter(pointer, "format", "hostname: the 253-character total length is checked after decoding");
    return cat(lit('"'), ctx.library(FORMAT_FILES[format]!, format), lit('"'));
  }
  const written = node.get("pattern");
  const pattern = written === undefined ? undefined : checkPattern(written, "pattern", pointer);
  if (format !== undefined) reportUngrammaticalFormat(ctx, pointer, format);
  const source = isVerbatim(node.raw[VENDOR_KEY]) ? ctx.options.verbatimSource : undefined;
  // The text already bounds a verbatim value; a counter on top would multiply its automaton.
  if (ctx.extraction && maxLength === Infinity && source === undefined) maxLength = Math.max(minLength, ctx.options.defaultMaxStringLength);
  if (source !== undefined) ctx.report.set(pointer, VENDOR_KEY, "enforced", "verbatim: only substrings of the source text");
  return jsonString({ minLength, maxLength, pattern, ...(source !== undefined ? { substringOf: source } : {}) });
}

/** The report entry of a format without a grammar (see the file comment). */
function reportUngrammaticalFormat(ctx: CompileContext, pointer: string, format: string): void {
  if (VALIDATOR_FORMATS.has(format)) ctx.report.set(pointer, "format", "validatedAfter", `format "${format}" has no grammar; checked after decoding (ajv-formats)`);
  else if (SPEC_FORMATS.has(format)) ctx.report.set(pointer, "format", "annotation", `${FORMAT_NOT_ENFORCED}: format "${format}" has no grammar and the validator does not know it`);
  else ctx.report.set(pointer, "format", "annotation", `unknown format "${format}", not checked`);
}

/** The vendor mark `{"verbatim": true}`: the value is a substring of the source text. */
function isVerbatim(mark: unknown): boolean {
  return typeof mark === "object" && mark !== null && (mark as { verbatim?: unknown }).verbatim === true;
}
