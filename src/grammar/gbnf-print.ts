/**
 * Prints a Grammar as GBNF text (the llama.cpp grammar format).
 *
 * Dialect: standard GBNF (`name ::= ...`, `"lit"`, `[a-z]`, `( )`, `|`, `?`, `*`, `+`, `{m}`,
 * `{m,}`, `{m,n}`, `#` comments) plus one extension for the IR's `jsonString` node:
 *
 *   %json-string(min=0, max=512, pattern="^[a-z]+$", exclude=["id", "name"], exclude-patterns=["^x-"])
 *   (and `substring-of="..."` for a verbatim field: only non-empty substrings of that text)
 *
 * (`max=inf` when unbounded; the optional fields are omitted when absent). With
 * `{ llamaCpp: true }` a jsonString without pattern/exclusions is expanded into plain GBNF
 * (`"\"" char{min,max} "\""`), so the output loads in llama.cpp; a jsonString with a pattern or
 * exclusions cannot be written in plain GBNF and is then rejected with GRAMMAR_SYNTAX; for any
 * grammar as llama.cpp GBNF (patterns and exclusions expanded, canonical escapes, widenings
 * listed in a header) use `printLlamaGbnf` (src/regex/llama-gbnf.ts).
 * The start rule is printed first as `root`. Rule names are kept when they are GBNF identifiers
 * (`[a-zA-Z0-9-]+`), otherwise sanitized (and de-duplicated).
 */

import { PocketExtractError } from "../errors.js";
import { printEbnf, type JsonStringExpr } from "./ebnf-print.js";
import type { Grammar } from "./ir.js";
import { formatClass, quoteLiteral } from "./text-escape.js";

/** printGbnf's options. */
export interface GbnfPrintOptions {
  /** Expand jsonString nodes into plain GBNF so llama.cpp can load the text. */
  readonly llamaCpp?: boolean;
}

const JSON_CHAR_RULE = "json-char";
const JSON_CHAR_DEF = `${JSON_CHAR_RULE} ::= [^"\\\\\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})`;

/**
 * Prints a grammar IR as GBNF text (pocket-extract's dialect, or plain GBNF that llama.cpp loads with
 * `llamaCpp: true`).
 */
export function printGbnf(grammar: Grammar, options: GbnfPrintOptions = {}): string {
  let needsJsonChar = false;
  const lines = printEbnf(grammar, {
    sanitize: (n) => n.replace(/[^a-zA-Z0-9-]/g, "-") || "r",
    startName: "root",
    ruleSeparator: " ::= ",
    chars: formatClass,
    nothing: "[^\\x00-\\U0010FFFF]",
    repeat: (inner, min, max) =>
      inner +
      (min === 0 && max === 1 ? "?" : min === 0 && max === Infinity ? "*" : min === 1 && max === Infinity ? "+"
        : max === Infinity ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`),
    jsonString: (e, prec) => {
      if (!options.llamaCpp) return printJsonStringExtension(e);
      if (e.pattern !== undefined || e.exclude !== undefined || e.excludePatterns !== undefined || e.substringOf !== undefined) {
        throw new PocketExtractError("GRAMMAR_SYNTAX", "a string with a pattern, exclusions or a verbatim source has no plain-GBNF form");
      }
      needsJsonChar = true;
      const rep = e.maxLength === Infinity ? (e.minLength === 0 ? "*" : `{${e.minLength},}`) : `{${e.minLength},${e.maxLength}}`;
      const s = `"\\"" ${JSON_CHAR_RULE}${rep} "\\""`;
      return prec > 1 ? `(${s})` : s;
    },
  });
  if (needsJsonChar) lines.push(JSON_CHAR_DEF);
  return `${lines.join("\n")}\n`;
}

function printJsonStringExtension(e: JsonStringExpr): string {
  const args = [`min=${e.minLength}`, `max=${e.maxLength === Infinity ? "inf" : e.maxLength}`];
  if (e.pattern !== undefined) args.push(`pattern=${quoteLiteral(e.pattern)}`);
  if (e.exclude !== undefined) args.push(`exclude=[${e.exclude.map(quoteLiteral).join(", ")}]`);
  if (e.excludePatterns !== undefined) args.push(`exclude-patterns=[${e.excludePatterns.map(quoteLiteral).join(", ")}]`);
  if (e.substringOf !== undefined) args.push(`substring-of=${quoteLiteral(e.substringOf)}`);
  return `%json-string(${args.join(", ")})`;
}
