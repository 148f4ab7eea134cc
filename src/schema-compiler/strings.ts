/**
 * String subschemas: `minLength`/`maxLength` (code points), `pattern`, and `format` for the
 * formats in grammars/*.gbnf. A known format is enforced by its grammar rule, cut to length
 * bounds where there are any (hostname's 253 characters included); a pattern next to a format is
 * then checked after decoding (the IR cannot intersect two patterns).
 * A format JSON Schema defines but without a grammar is never reported as enforced: checked after
 * decoding where the validator knows it (regex, uri-template, ...), else reported as not
 * enforced (iri, iri-reference, idn-*). Other formats are annotations. In extraction mode an unbounded string gets
 * `defaultMaxStringLength`.
 */

import { jsonString, lit, type Expr } from "../grammar/index.js";
import { KNOWN_FORMATS, keywordsWhere, SPEC_FORMATS, VALIDATOR_FORMATS, VENDOR_KEY, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { formatPattern } from "./format-patterns.js";
import { checkPattern } from "./patterns.js";

const FORMAT_FILES: Record<string, string> = {
  date: "datetime", time: "datetime", "date-time": "datetime", duration: "datetime",
  email: "network", ipv4: "network", ipv6: "network", hostname: "network",
  uri: "network", "uri-reference": "network", uuid: "uuid",
};

/** The string keywords besides `format`: a format's grammar intersects the lengths, not a pattern. */
const BESIDE_FORMAT = keywordsWhere((s, k) => s.instance === "string" && k !== "format");
const LENGTHS: readonly string[] = ["minLength", "maxLength"];
/** RFC 1123: a host name is at most 253 characters (ASCII, so code points too). */
const MAX_HOSTNAME_LENGTH = 253;

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
    // the verify step checks it after decoding.
    node.get("pattern"); // a malformed pattern is refused all the same
    for (const k of BESIDE_FORMAT) {
      if (node.has(k) && !LENGTHS.includes(k)) ctx.report.set(pointer, k, "validatedAfter", `format "${format}" is enforced; ${k} is checked after decoding`);
    }
    // Length bounds cut the format's language in the string token (its rule as a pattern, format-patterns.ts).
    if (format === "hostname") maxLength = Math.min(maxLength, MAX_HOSTNAME_LENGTH);
    if (minLength > maxLength) return ctx.unsat(`minLength ${minLength} > ${maxLength}, the longest ${format}`, "minLength", pointer);
    if (minLength === 0 && maxLength === Infinity) return cat(lit('"'), ctx.library(FORMAT_FILES[format]!, format), lit('"'));
    return jsonString({ minLength, maxLength, pattern: formatPattern(FORMAT_FILES[format]!, format) });
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
