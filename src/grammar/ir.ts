/**
 * The grammar intermediate representation: what the schema compiler produces and the automaton
 * builder consumes. It is a set of named rules over Unicode characters (encoded as UTF-8 when the
 * automaton is built). It is not tied to JSON Schema: grammars parsed from GBNF/Lark text give the
 * same structure. `jsonString` is the one JSON-aware node, because a string's characters, its length
 * bound and its regex all apply to the *decoded* characters while the bytes must be JSON-escaped.
 */

export type Expr =
  /** Literal text, e.g. `{"name":`. */
  | { readonly kind: "lit"; readonly text: string }
  /** One code point from a set of inclusive ranges (sorted, non-overlapping). */
  | { readonly kind: "chars"; readonly ranges: readonly (readonly [number, number])[] }
  | { readonly kind: "seq"; readonly items: readonly Expr[] }
  | { readonly kind: "alt"; readonly items: readonly Expr[] }
  /** `max` may be Infinity. */
  | { readonly kind: "repeat"; readonly item: Expr; readonly min: number; readonly max: number }
  /** Reference to a named rule (recursion allowed; the automaton builder bounds its depth). */
  | { readonly kind: "ref"; readonly name: string }
  /** A complete JSON string token, quotes included, whose decoded content satisfies all of:
   *  length in code points within [minLength, maxLength], matches `pattern` (ECMAScript regex
   *  source, unanchored search semantics as JSON Schema uses) if given, is none of `exclude`,
   *  matches none of `excludePatterns`, and, when `substringOf` is given, is a non-empty
   *  substring of that text (a verbatim field). Characters are written in canonical JSON form:
   *  `"` and `\` escaped, control characters as \n, \t, ... or \u00XX, everything else raw. */
  | {
      readonly kind: "jsonString";
      readonly minLength: number;
      readonly maxLength: number;
      readonly pattern?: string;
      readonly exclude?: readonly string[];
      readonly excludePatterns?: readonly string[];
      readonly substringOf?: string;
    };

/** A grammar in the IR: named rules (expressions) and the start rule's name. */
export interface Grammar {
  readonly start: string;
  readonly rules: ReadonlyMap<string, Expr>;
  /**
   * Rules whose text is a JSON array of strings that must be pairwise distinct as decoded
   * values (`uniqueItems` over strings with no finite set of values). Distinctness over an
   * infinite item language is not regular, so the rule's own expression says nothing of it:
   * the automaton marks the states inside these rules and the matcher refuses a duplicate
   * (mask/distinct-items.ts). Printed grammars (GBNF, Lark) do not carry it.
   */
  readonly distinctArrays?: ReadonlySet<string>;
}

export const lit = (text: string): Expr => ({ kind: "lit", text });
export const seq = (...items: Expr[]): Expr => ({ kind: "seq", items });
export const alt = (...items: Expr[]): Expr => ({ kind: "alt", items });
export const ref = (name: string): Expr => ({ kind: "ref", name });
export const repeat = (item: Expr, min: number, max: number): Expr => ({ kind: "repeat", item, min, max });
/** Copies of its item a repeat becomes in an automaton (automaton/fsa/expr-nfa.ts: the mandatory
 *  ones, then one per optional one, or one looping copy). */
export function repeatCopies(min: number, max: number): number {
  return max === Infinity ? min + 1 : Math.max(max, 1);
}
export const chars = (...ranges: (readonly [number, number])[]): Expr => ({ kind: "chars", ranges });

/** A JSON string token (see the `jsonString` node); omitted optional fields stay absent. */
export const jsonString = (opts: {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  exclude?: readonly string[];
  excludePatterns?: readonly string[];
  substringOf?: string;
}): Expr => ({
  kind: "jsonString",
  minLength: opts.minLength ?? 0,
  maxLength: opts.maxLength ?? Infinity,
  ...(opts.pattern !== undefined ? { pattern: opts.pattern } : {}),
  ...(opts.exclude !== undefined && opts.exclude.length > 0 ? { exclude: opts.exclude } : {}),
  ...(opts.excludePatterns !== undefined && opts.excludePatterns.length > 0 ? { excludePatterns: opts.excludePatterns } : {}),
  ...(opts.substringOf !== undefined ? { substringOf: opts.substringOf } : {}),
});
/** The empty string (matches without consuming anything). */
export const empty = (): Expr => ({ kind: "seq", items: [] });
/** The empty language (matches nothing): an alternative with no branches. */
export const never = (): Expr => ({ kind: "alt", items: [] });
/** `item?` */
export const optional = (item: Expr): Expr => repeat(item, 0, 1);
