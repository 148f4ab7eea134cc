/**
 * String subschemas: `minLength`/`maxLength` (code points), `pattern`, and `format` for the
 * formats in grammars/*.gbnf. A known format is enforced by its grammar rule; length bounds or a
 * pattern next to it are enforced with it as one pattern on a string (formatWithBounds), or
 * checked after decoding when they do not combine.
 * A format JSON Schema defines but without a grammar is never reported as enforced: checked after
 * decoding where the validator knows it (regex, uri-template, ...), else reported as not
 * enforced (iri, iri-reference, idn-*). Other formats are annotations. In extraction mode an unbounded string gets
 * `defaultMaxStringLength`.
 */

import { jsonString, lit, loadGrammarFile, type Expr } from "../grammar/index.js";
import { regexOfRule } from "../regex/index.js";
import { KNOWN_FORMATS, keywordsWhere, SPEC_FORMATS, VALIDATOR_FORMATS, VENDOR_KEY, type SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { cat } from "./format.js";
import { bothPatterns, checkPattern } from "./patterns.js";

const FORMAT_FILES: Record<string, string> = {
  date: "datetime", time: "datetime", "date-time": "datetime", duration: "datetime",
  email: "network", ipv4: "network", ipv6: "network", hostname: "network",
  uri: "network", "uri-reference": "network", uuid: "uuid",
};

/** A hostname's longest total length (RFC 1123), which its grammar's labels do not bound. */
const MAX_HOSTNAME = 253;

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
    const longest = format === "hostname" ? Math.min(maxLength, MAX_HOSTNAME) : maxLength;
    if (minLength > longest) return ctx.unsat(`minLength ${minLength} > ${longest}, the longest ${format}`, "minLength", pointer);
    const combined = BESIDE_FORMAT.some((k) => node.has(k)) || longest !== maxLength ? formatWithBounds(node, format, minLength, longest) : undefined;
    if (combined !== undefined) return combined;
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

/**
 * A known format's strings as one string token (its rule as a pattern, with the node's length
 * bounds and pattern), which can take exclusion lists as a format's rule cannot; undefined
 * when the format is not known, its rule has no regex form, or the node's pattern does not combine.
 */
export function formatStringToken(node: SchemaNode): Expr | undefined {
  const format = node.get("format");
  if (format === undefined || !KNOWN_FORMATS.has(format)) return undefined;
  const maxLength = node.get("maxLength") ?? Infinity;
  return formatWithBounds(node, format, node.get("minLength") ?? 0, format === "hostname" ? Math.min(maxLength, MAX_HOSTNAME) : maxLength);
}

/** Formats whose rule has a regex form, by name (null: none). */
const formatSources = new Map<string, string | null>();

/** The format's rule as an anchored pattern, or null when it has none. */
export function formatPattern(format: string): string | null {
  let source = formatSources.get(format);
  if (source === undefined) {
    const body = regexOfRule(loadGrammarFile(FORMAT_FILES[format]!).rules, format);
    formatSources.set(format, (source = body === null ? null : `^(?:${body})$`));
  }
  return source;
}

/**
 * A known format with length bounds or a pattern beside it, all enforced on one string: the
 * format's grammar as a pattern (regex/expr-regex.ts; a format's characters are the ones JSON
 * writes raw, so its text and the decoded string are the same), the written pattern as a
 * look-ahead on it, and the bounds as the string's counter (for a hostname, at most its
 * 253-character total, always). Undefined when they do not combine (the pattern has look-arounds of
 * its own): the caller enforces the format and checks the rest after decoding.
 */
function formatWithBounds(node: SchemaNode, format: string, minLength: number, maxLength: number): Expr | undefined {
  const source = formatPattern(format);
  if (source === null) return undefined;
  const written = node.get("pattern");
  const pattern = written === undefined ? source : bothPatterns(checkPattern(written, "pattern", node.pointer), source);
  if (pattern === undefined) return undefined;
  return jsonString({ minLength, maxLength, pattern });
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
