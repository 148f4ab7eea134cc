/**
 * What the grammar automaton reads about one rule (rule-analysis.ts computes it for dense rule
 * automata, verbatim-automaton.ts for a document's verbatim strings). It lives with the building
 * blocks because both layers above implement it: the string automata computed on demand
 * (strings/) and the rules determinized as documents reach them (rules/subset-rule.ts).
 */

export const UNBOUNDED = 0x3fffffff;
/** `dist` of a state that cannot complete. */
export const UNREACHABLE = 0x3fffffff;
/** A plain-text budget no real one is below: "survives nothing for sure", always safe to claim. */
export const NO_BUDGET = -1;
/** `singleByte`: no byte moves / several bytes move. */
export const NO_BYTE = -1;
export const MANY_BYTES = -2;

export interface RuleTables {
  /** Next state on one of the rule's columns (byte class or call), -1 when none or when the move
   *  cannot complete within the depth left. */
  next(state: number, column: number): number;
  /** Fewest bytes to the rule's own acceptance, a call counting its callee's shortest text. */
  dist(state: number): number;
  /** Characters of plain text survivable from `state` at UTF-8 position `pos` within the rule
   *  (a lower bound; see rule-analysis.ts). */
  plainBudget(state: number, pos: number): number;
  /** The only byte a state moves on, NO_BYTE or MANY_BYTES (byte columns only). */
  singleByte(state: number): number;
}

/** A rule automaton whose states and tables are computed on demand instead of stored
 *  (verbatim-automaton.ts and bounded-string.ts, which call nothing; subset-rule.ts). */
export interface LazyRule {
  readonly numStates: number;
  readonly start: number;
  readonly classOf: Uint8Array;
  readonly numClasses: number;
  /** As in ByteDfa: the last `callees.length` columns are calls of these rule ids. */
  readonly callees: Int32Array | undefined;
  readonly tables: RuleTables;
  /** Fewest bytes of a text of the rule. */
  readonly shortest: number;
  /** The tables with callees at other shortest texts than `tables` assumes: what a recursive
   *  rule entered with less depth left reads (subset-rule.ts). */
  tablesAt?(shortestOf: (callee: number) => number): RuleTables;
}

export function isLazyRule(rule: object): rule is LazyRule {
  return "tables" in rule;
}
