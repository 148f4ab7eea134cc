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
 * exclusions cannot be written in plain GBNF and is then rejected with GRAMMAR_SYNTAX.
 * The start rule is printed first as `root`. Rule names are kept when they are GBNF identifiers
 * (`[a-zA-Z0-9-]+`), otherwise sanitized (and de-duplicated).
 */

import { PocketExtractError } from "../errors.js";
import type { Expr, Grammar } from "./ir.js";
import { formatClass, quoteLiteral } from "./text-escape.js";

export interface GbnfPrintOptions {
  /** Expand jsonString nodes into plain GBNF so llama.cpp can load the text. */
  readonly llamaCpp?: boolean;
}

/** Maps IR rule names to printable, unique identifiers; the start rule becomes `root`. */
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

const JSON_CHAR_RULE = "json-char";
const JSON_CHAR_DEF = `${JSON_CHAR_RULE} ::= [^"\\\\\\x00-\\x1F] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})`;

export function printGbnf(grammar: Grammar, options: GbnfPrintOptions = {}): string {
  const names = printableNames(grammar, (n) => n.replace(/[^a-zA-Z0-9-]/g, "-") || "r", "root");
  let needsJsonChar = false;
  const expr = (e: Expr, prec: number): string => {
    switch (e.kind) {
      case "lit":
        return quoteLiteral(e.text);
      case "chars":
        return formatClass(e.ranges);
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
        if (e.items.length === 0) return "[^\\x00-\\U0010FFFF]";
        if (e.items.length === 1) return expr(e.items[0], prec);
        const s = e.items.map((i) => expr(i, 0)).join(" | ");
        return prec > 0 ? `(${s})` : s;
      }
      case "repeat": {
        const inner = expr(e.item, 2);
        const { min, max } = e;
        const suffix =
          min === 0 && max === 1 ? "?" : min === 0 && max === Infinity ? "*" : min === 1 && max === Infinity ? "+"
          : max === Infinity ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
        return inner + suffix;
      }
      case "jsonString": {
        if (options.llamaCpp) {
          if (e.pattern !== undefined || e.exclude !== undefined || e.excludePatterns !== undefined || e.substringOf !== undefined) {
            throw new PocketExtractError("GRAMMAR_SYNTAX", "a string with a pattern, exclusions or a verbatim source has no plain-GBNF form");
          }
          needsJsonChar = true;
          const rep = e.maxLength === Infinity ? (e.minLength === 0 ? "*" : `{${e.minLength},}`) : `{${e.minLength},${e.maxLength}}`;
          const s = `"\\"" ${JSON_CHAR_RULE}${rep} "\\""`;
          return prec > 1 ? `(${s})` : s;
        }
        return printJsonStringExtension(e);
      }
    }
  };
  const lines: string[] = [];
  const order = [grammar.start, ...[...grammar.rules.keys()].filter((n) => n !== grammar.start)];
  for (const name of order) {
    const body = grammar.rules.get(name);
    if (body === undefined) throw new PocketExtractError("GRAMMAR_SYNTAX", `start rule "${name}" is not defined`);
    lines.push(`${names.get(name)} ::= ${expr(body, 0)}`);
  }
  if (needsJsonChar) lines.push(JSON_CHAR_DEF);
  return `${lines.join("\n")}\n`;
}

function printJsonStringExtension(e: Extract<Expr, { kind: "jsonString" }>): string {
  const args = [`min=${e.minLength}`, `max=${e.maxLength === Infinity ? "inf" : e.maxLength}`];
  if (e.pattern !== undefined) args.push(`pattern=${quoteLiteral(e.pattern)}`);
  if (e.exclude !== undefined) args.push(`exclude=[${e.exclude.map(quoteLiteral).join(", ")}]`);
  if (e.excludePatterns !== undefined) args.push(`exclude-patterns=[${e.excludePatterns.map(quoteLiteral).join(", ")}]`);
  if (e.substringOf !== undefined) args.push(`substring-of=${quoteLiteral(e.substringOf)}`);
  return `%json-string(${args.join(", ")})`;
}
