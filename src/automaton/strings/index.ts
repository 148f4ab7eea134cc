/**
 * The front of the JSON string automata: a string token's automaton from its spec (pattern,
 * length bounds, excluded names, verbatim source text), canonical JSON escaping, and "plain text"
 * (a string body's unescaped bytes) with the budgets the mask engine's subtree skip reads. Built
 * on fsa/; rules/ and the grammar automaton import it only through this file.
 */
export { BoundedStringAutomaton } from "./bounded-string.js";
export { ExcludedNamesAutomaton } from "./excluded-names.js";
export { ESCAPE_ALPHABET } from "./json-escape.js";
export { JsonStrings, type JsonStringSpec } from "./json-string.js";
export { plainLeadPending } from "./plain-text.js";
export { plainBudgets, plainBudgetsOf } from "./plain-text-budget.js";
export { shortestVerbatimValue, VerbatimAutomaton } from "./verbatim-automaton.js";
