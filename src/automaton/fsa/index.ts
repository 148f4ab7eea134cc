/**
 * The front of the generic automaton building blocks: byte NFAs and DFAs, subset construction,
 * trimming and minimizing, products, byte partitions, UTF-8 ranges, work budgets, and the tables
 * every automaton the grammar automaton runs exposes (rule-tables.ts). Nothing here spells JSON;
 * strings/ and rules/ build on it and import it only through this file.
 */
export { partitionFromCuts, refine, refineClasses, type Partition } from "./byte-partition.js";
export { compileExpr } from "./compile-expr.js";
export { concatAfterSinks } from "./concat.js";
export { determinize, SubsetConstruction } from "./determinize.js";
export { stepByte, type ByteDfa } from "./dfa.js";
export { DfaBuilder } from "./dfa-builder.js";
export { distancesOf } from "./dfa-distances.js";
export { addExpr, type Leaf, type ResolveLeaf } from "./expr-nfa.js";
export { finish } from "./finish.js";
export { grow } from "./grow.js";
export { IntList } from "./int-list.js";
export { IntSetTable } from "./int-set-table.js";
export { IntSlices } from "./int-slices.js";
export { boundLength } from "./length-bound.js";
export { Nfa, type Fragment, type FrozenNfa } from "./nfa.js";
export { product } from "./product.js";
export { isLazyRule, MANY_BYTES, NO_BUDGET, NO_BYTE, UNBOUNDED, UNREACHABLE, type LazyRule, type RuleTables } from "./rule-tables.js";
export { distancesTo } from "./shortest-paths.js";
export { ClassBytes } from "./single-byte.js";
export { encodeCodePoint, encodeText, utf8Sequences } from "./utf8.js";
export { Budget } from "./work-budget.js";
