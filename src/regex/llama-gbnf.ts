/**
 * `printLlamaGbnf`: a grammar as GBNF that llama.cpp's own parser loads, with no pocket-extract
 * extension: every `jsonString` node becomes plain rules (plain-json-string.ts) and repeat counts
 * llama.cpp refuses are split (grammar/split-repeats.ts). It lives here, above the grammar
 * module, because expanding a string's pattern needs the regex compiler. When some constraint
 * has no plain form the printed grammar is wider than ours; it then opens with comment lines that
 * say so and list each widening, so a different language is never printed silently.
 */
import { printGbnf, splitLargeRepeats, type Expr, type Grammar } from "../grammar/index.js";
import { plainJsonString, type RuleNames } from "./plain-json-string.js";

/** A grammar as llama.cpp GBNF, with the widenings its header lists. */
export interface LlamaGbnf {
  readonly text: string;
  /** The widenings the text's header lists; empty when the text is exactly our grammar. */
  readonly approximations: readonly string[];
}

/** The GBNF text alone; see `toLlamaGbnf` for the list of approximations. */
export function printLlamaGbnf(grammar: Grammar): string {
  return toLlamaGbnf(grammar).text;
}

/**
 * The grammar as GBNF llama.cpp loads: strings expanded into plain rules, large repeat counts
 * split. Where a constraint has no plain form the text is wider than our grammar, opens with a
 * comment header saying so, and `approximations` lists each widening.
 */
export function toLlamaGbnf(grammar: Grammar): LlamaGbnf {
  const rules = new Map(grammar.rules);
  const used = new Set(rules.keys());
  const sharedNames = new Map<string, string>();
  const names: RuleNames = {
    fresh(hint) {
      let name = hint;
      for (let i = 2; used.has(name); i++) name = `${hint}-${i}`;
      used.add(name);
      return name;
    },
    shared(hint, body) {
      let name = sharedNames.get(hint);
      if (name === undefined) {
        sharedNames.set(hint, (name = names.fresh(hint)));
        rules.set(name, body());
      }
      return name;
    },
  };
  const approximations: string[] = [];
  const expand = (e: Expr, rule: string): Expr => {
    switch (e.kind) {
      case "seq":
      case "alt":
        return { kind: e.kind, items: e.items.map((i) => expand(i, rule)) };
      case "repeat":
        return { ...e, item: expand(e.item, rule) };
      case "jsonString": {
        const plain = plainJsonString(e, names);
        for (const [name, body] of plain.rules) rules.set(name, body);
        for (const note of plain.approximations) approximations.push(`${rule}: ${note}`);
        return plain.expr;
      }
      default:
        return e;
    }
  };
  for (const [name, body] of grammar.rules) rules.set(name, expand(body, name === grammar.start ? "root" : name));
  const text = printGbnf(splitLargeRepeats({ start: grammar.start, rules }));
  if (approximations.length === 0) return { text, approximations };
  const header = [
    "# APPROXIMATION: this GBNF accepts more than pocket-extract's grammar (pocket-extract enforces",
    "# these constraints; llama.cpp with this text does not, so validate its output):",
    ...[...new Set(approximations)].map((a) => `#   ${a}`),
  ];
  return { text: `${header.join("\n")}\n${text}`, approximations };
}
