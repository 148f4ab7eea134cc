/**
 * Prints a Grammar as Lark-style text (the dialect llguidance reads): `name: body` rules,
 * `"lit"`, `/[a-z]/` classes, `item ~ m..n` bounded repetition, and llguidance's `%json {...}`
 * for the IR's jsonString node (a JSON Schema string subschema; exclusions become `not.enum` /
 * `not.anyOf[pattern]`). For reading and for llguidance; we do not parse it back.
 */

import { PocketExtractError } from "../errors.js";
import { printableNames } from "./gbnf-print.js";
import type { Expr, Grammar } from "./ir.js";
import { formatClass, quoteLiteral } from "./text-escape.js";

export function printLark(grammar: Grammar): string {
  const names = printableNames(grammar, (n) => n.toLowerCase().replace(/[^a-z0-9_]/g, "_").replace(/^(?=[0-9])/, "r_") || "r", "start");
  const expr = (e: Expr, prec: number): string => {
    switch (e.kind) {
      case "lit":
        return quoteLiteral(e.text);
      case "chars":
        return `/${formatClass(e.ranges).replace(/\//g, "\\/")}/`;
      case "ref": {
        const name = names.get(e.name);
        if (name === undefined) throw new PocketExtractError("GRAMMAR_SYNTAX", `reference to undefined rule "${e.name}"`);
        return name;
      }
      case "seq": {
        if (e.items.length === 0) return '""';
        if (e.items.length === 1) return expr(e.items[0], prec);
        const s = e.items.map((i) => expr(i, 1)).join(" ");
        return prec > 1 ? `(${s})` : s;
      }
      case "alt": {
        if (e.items.length === 0) return "/[^\\x00-\\U0010FFFF]/";
        if (e.items.length === 1) return expr(e.items[0], prec);
        const s = e.items.map((i) => expr(i, 0)).join(" | ");
        return prec > 0 ? `(${s})` : s;
      }
      case "repeat": {
        const inner = expr(e.item, 2);
        const { min, max } = e;
        if (min === 0 && max === 1) return `${inner}?`;
        if (max === Infinity) return min === 0 ? `${inner}*` : min === 1 ? `${inner}+` : `${inner} ~ ${min} ${inner}*`;
        const s = `${inner} ~ ${min === max ? `${min}` : `${min}..${max}`}`;
        return prec > 1 ? `(${s})` : s;
      }
      case "jsonString": {
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
      }
    }
  };
  const order = [grammar.start, ...[...grammar.rules.keys()].filter((n) => n !== grammar.start)];
  return `${order.map((n) => `${names.get(n)}: ${expr(grammar.rules.get(n)!, 0)}`).join("\n")}\n`;
}
