/**
 * Where a grammar automaton state is relative to the grammar's distinct arrays
 * (Grammar.distinctArrays): what the matcher needs to know to keep their items distinct
 * (mask/distinct-items.ts). A configuration of the state is inside a distinct array when its
 * top frame is the array's rule before its closing bracket, or a rule the array called (an item
 * string, whitespace). Every configuration reads the same JSON text, so those inside one are
 * inside the same array; the others do not care what its items are.
 */

/** No configuration is inside a distinct array. */
export const DISTINCT_NONE = 0;
/** Some configurations are, others not: a duplicate item leaves the others. */
export const DISTINCT_SOME = 1;
/** Every configuration is: the array can only go on with distinct items. */
export const DISTINCT_ALL = 2;

export type DistinctMark = typeof DISTINCT_NONE | typeof DISTINCT_SOME | typeof DISTINCT_ALL;
