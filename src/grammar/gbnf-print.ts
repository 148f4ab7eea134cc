/**
 * Prints a Grammar as GBNF text (the llama.cpp grammar format).
 *
 * Dialect: standard GBNF (`name ::= ...`, `"lit"`, `[a-z]`, `( )`, `|`, `?`, `*`, `+`, `{m}`,
 * `{m,}`, `{m,n}`, `#` comments) plus one extension for the IR's `jsonString` node:
 *
 *   %json-string(min=0, max=512, pattern="^[a-z]+$", exclude=["id", "name"], exclude-patterns=["^x-"])
 *   (and `substring-of="..."` for a verbatim field: only non-empty substrings of that text)
 *
 * (`max=inf` when unbounded; the optional fields are omitted when absent). llama.cpp cannot load
 * the extension; for GBNF it loads (strings expanded into plain rules, any widening listed in a
 * header) use `printLlamaGbnf` (src/regex/llama-gbnf.ts).
 * The start rule is printed first as `root`. Rule names are kept when they are GBNF identifiers
 * (`[a-zA-Z0-9-]+`), otherwise sanitized (and de-duplicated).
 */

import { printEbnf, type JsonStringExpr } from "./ebnf-print.js";
import type { Grammar } from "./ir.js";
import { formatClass, quoteLiteral } from "./text-escape.js";

/** Prints a grammar IR as GBNF text in pocket-extract's dialect (see the header). */
export function printGbnf(grammar: Grammar): string {
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
    jsonString: printJsonStringExtension,
  });
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
