/**
 * Prints a Grammar as Lark-style text (the dialect llguidance reads): `name: body` rules,
 * `"lit"`, `/[a-z]/` classes, `item ~ m..n` bounded repetition, and llguidance's `%json {...}`
 * for the IR's jsonString node (a JSON Schema string subschema; exclusions become `not.enum` /
 * `not.anyOf[pattern]`). For reading and for llguidance; we do not parse it back.
 */

import { PocketExtractError } from "../errors.js";
import { printEbnf } from "./ebnf-print.js";
import type { Grammar } from "./ir.js";
import { formatClass } from "./text-escape.js";

/** Prints a grammar IR as a Lark grammar (for llguidance and other Lark-based engines). */
export function printLark(grammar: Grammar): string {
  const lines = printEbnf(grammar, {
    sanitize: (n) => n.toLowerCase().replace(/[^a-z0-9_]/g, "_").replace(/^(?=[0-9])/, "r_") || "r",
    startName: "start",
    ruleSeparator: ": ",
    chars: (ranges) => `/${formatClass(ranges).replace(/\//g, "\\/")}/`,
    nothing: "/[^\\x00-\\U0010FFFF]/",
    repeat: (inner, min, max, prec) => {
      if (min === 0 && max === 1) return `${inner}?`;
      if (max === Infinity) return min === 0 ? `${inner}*` : min === 1 ? `${inner}+` : `${inner} ~ ${min} ${inner}*`;
      const s = `${inner} ~ ${min === max ? `${min}` : `${min}..${max}`}`;
      return prec > 1 ? `(${s})` : s;
    },
    jsonString: (e) => {
      if (e.substringOf !== undefined) {
        throw new PocketExtractError("GRAMMAR_SYNTAX", "a verbatim string (substrings of a source text) has no Lark form");
      }
      const schema: Record<string, unknown> = { type: "string" };
      if (e.minLength > 0) schema.minLength = e.minLength;
      if (e.maxLength !== Infinity) schema.maxLength = e.maxLength;
      if (e.pattern !== undefined) schema.pattern = e.pattern;
      const not: unknown[] = [];
      if (e.exclude !== undefined) not.push({ enum: e.exclude });
      for (const p of e.excludePatterns ?? []) not.push({ pattern: p });
      if (not.length > 0) schema.not = not.length === 1 ? not[0] : { anyOf: not };
      return `%json ${JSON.stringify(schema)}`;
    },
  });
  return `${lines.join("\n")}\n`;
}
