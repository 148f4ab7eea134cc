/**
 * The EBNF skeleton both grammar printers share: rule naming and ordering, literals, references,
 * sequences and alternatives with precedence. A dialect (GBNF, Lark) supplies only what differs:
 * character classes, the empty language, bounded repetition and the jsonString node.
 * Precedence levels: 0 = alternative, 1 = sequence item, 2 = repetition operand.
 */
import { PocketExtractError } from "../errors.js";
import type { Expr, Grammar } from "./ir.js";
import { quoteLiteral } from "./text-escape.js";

export type JsonStringExpr = Extract<Expr, { kind: "jsonString" }>;

export interface EbnfDialect {
  /** Identifier for an IR rule name (made unique by the caller). */
  sanitize(name: string): string;
  /** Printed name of the start rule. */
  readonly startName: string;
  /** `name <sep> body`. */
  readonly ruleSeparator: string;
  chars(ranges: readonly (readonly [number, number])[]): string;
  /** The empty language (an alternative with no branches). */
  readonly nothing: string;
  repeat(inner: string, min: number, max: number, prec: number): string;
  jsonString(e: JsonStringExpr, prec: number): string;
}

/** Maps IR rule names to printable, unique identifiers; the start rule gets `startName`. */
export function printableNames(grammar: Grammar, sanitize: (name: string) => string, startName: string): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>([startName]);
  names.set(grammar.start, startName);
  for (const name of grammar.rules.keys()) {
    if (name === grammar.start) continue;
    let candidate = sanitize(name);
    for (let i = 2; used.has(candidate); i++) candidate = `${sanitize(name)}${sanitize("-")}${i}`;
    used.add(candidate);
    names.set(name, candidate);
  }
  return names;
}

/** One line per rule, the start rule first. */
export function printEbnf(grammar: Grammar, dialect: EbnfDialect): string[] {
  const names = printableNames(grammar, dialect.sanitize, dialect.startName);
  const expr = (e: Expr, prec: number): string => {
    switch (e.kind) {
      case "lit":
        return quoteLiteral(e.text);
      case "chars":
        return dialect.chars(e.ranges);
      case "ref": {
        const name = names.get(e.name);
        if (name === undefined) throw new PocketExtractError("GRAMMAR_SYNTAX", `reference to undefined rule "${e.name}"`);
        return name;
      }
      case "seq": {
        if (e.items.length === 0) return '""';
        if (e.items.length === 1) return expr(e.items[0]!, prec);
        const s = e.items.map((i) => expr(i, 1)).join(" ");
        return prec > 1 ? `(${s})` : s;
      }
      case "alt": {
        if (e.items.length === 0) return dialect.nothing;
        if (e.items.length === 1) return expr(e.items[0]!, prec);
        const s = e.items.map((i) => expr(i, 0)).join(" | ");
        return prec > 0 ? `(${s})` : s;
      }
      case "repeat":
        return dialect.repeat(expr(e.item, 2), e.min, e.max, prec);
      case "jsonString":
        return dialect.jsonString(e, prec);
    }
  };
  const order = [grammar.start, ...[...grammar.rules.keys()].filter((n) => n !== grammar.start)];
  return order.map((name) => {
    const body = grammar.rules.get(name);
    if (body === undefined) throw new PocketExtractError("GRAMMAR_SYNTAX", `start rule "${name}" is not defined`);
    return `${names.get(name)}${dialect.ruleSeparator}${expr(body, 0)}`;
  });
}
