/**
 * Per-rule facts (rule-tables.ts) the grammar automaton and the mask engine need, computed with
 * linear-time graph searches when a rule is first used, for each recursion depth left where the
 * rule's component is recursive (once otherwise, and shared with the rule's cache entry):
 *  - `next`: the rule's moves with every move removed that cannot complete within the depth
 *    left, so any state the automaton enters can still finish the document (no dead ends);
 *  - `dist`: fewest bytes to the rule's own acceptance, a call counting its callee's shortest text;
 *  - `plainBudget`: how many characters of plain text (plain-text.ts) a state provably survives
 *    within the rule, per UTF-8 position: what lets a trie walk accept whole subtrees inside
 *    string bodies without visiting them (a call or return counts as a death here, which only
 *    makes the budget smaller, never wrong);
 *  - `singleByte`: the only byte a state moves on, for jump-forward.
 */
import { ClassBytes, distancesTo, isLazyRule, UNREACHABLE, type ByteDfa, type RuleTables } from "../fsa/index.js";
import { plainBudgets } from "../strings/index.js";
import type { RuleSet } from "./rule-automata.js";

export class RuleAnalysis {
  /** tables[rule][k]: k = depth left for recursive rules, a single entry otherwise. Made on first
   *  use of that rule at that depth, like the rules themselves: a call is weighed by its callee's
   *  shortest text, read off the IR (min-length.ts), so no other rule's tables (nor automaton)
   *  are needed, and a document entering one rule of a big recursive component builds that rule
   *  alone, not the whole component at every depth. */
  private readonly tables: RuleTables[][] = [];

  constructor(private readonly rules: RuleSet) {}

  /** The tables of `rule` entered with `depth` left. */
  of(rule: number, depth: number): RuleTables {
    const tables = (this.tables[rule] ??= []);
    if (!this.rules.recursive(rule)) return (tables[0] ??= this.sharedAnalysis(rule));
    return (tables[depth] ??= this.analyze(rule, depth));
  }

  /** Depth left inside `callee` when `caller` (with `depth` left) calls it; -1 when not allowed. */
  calleeDepth(caller: number, callee: number, depth: number): number {
    const { rules } = this;
    if (rules.component(caller) !== rules.component(callee)) return rules.maxDepth;
    return rules.head(callee) ? depth - 1 : depth;
  }

  /** A non-recursive rule's analysis, taken from (or given to) its shared cache entry. */
  private sharedAnalysis(rule: number): RuleTables {
    const shared = this.rules.shared(rule);
    if (shared === undefined) return this.analyze(rule, this.rules.maxDepth);
    return (shared.tables ??= this.analyze(rule, this.rules.maxDepth));
  }

  private analyze(rule: number, depth: number): RuleTables {
    const dfa = this.rules.dfa(rule);
    if (isLazyRule(dfa)) {
      if (dfa.tablesAt === undefined || !this.rules.recursive(rule)) return dfa.tables;
      return dfa.tablesAt((callee) => this.rules.minLength(callee, this.calleeDepth(rule, callee, depth)));
    }
    const callees = dfa.callees ?? NO_CALLEES;
    const first = dfa.numClasses - callees.length;
    const callWeight = Array.from(callees, (callee: number) => this.rules.minLength(callee, this.calleeDepth(rule, callee, depth)));
    const dist = distances(dfa, first, callWeight);
    const k = dfa.numClasses;
    // A rule without calls is trimmed as built: every move can complete, nothing to remove.
    const trans = callees.length === 0 ? dfa.trans : withoutDeadMoves(dfa, first, dist, callWeight);
    const filtered: ByteDfa = { ...dfa, trans };
    const budget = plainBudgets(filtered);
    const single = singleBytes(filtered, first);
    return {
      next: (state, column) => trans[state * k + column]!,
      dist: (state) => dist[state]!,
      plainBudget: (state, pos) => budget[state * 4 + pos]!,
      singleByte: (state) => single[state]!,
    };
  }
}

/** The rule's moves minus those into states that cannot complete or through calls that cannot. */
function withoutDeadMoves(dfa: ByteDfa, firstCall: number, dist: Int32Array, callWeight: readonly number[]): Int32Array {
  const trans = dfa.trans.slice();
  const k = dfa.numClasses;
  for (let s = 0; s < dfa.numStates; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      if (t >= 0 && (dist[t]! >= UNREACHABLE || (c >= firstCall && callWeight[c - firstCall]! >= UNREACHABLE))) trans[s * k + c] = -1;
    }
  }
  return trans;
}

const NO_CALLEES = new Int32Array(0);

/** Fewest bytes to an accepting state; a byte weighs 1, a call its callee's shortest text. */
function distances(dfa: ByteDfa, firstCall: number, callWeight: readonly number[]): Int32Array {
  const { numStates: n, numClasses: k, trans } = dfa;
  const edges = { from: [] as number[], to: [] as number[], weight: [] as number[] };
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      const w = c < firstCall ? 1 : callWeight[c - firstCall]!;
      if (t >= 0 && w < UNREACHABLE) edges.from.push(s), edges.to.push(t), edges.weight.push(w);
    }
  }
  const accepting: number[] = [];
  for (let s = 0; s < n; s++) if (dfa.accepting[s]) accepting.push(s);
  return distancesTo(n, edges, accepting);
}

/** Per state: its only byte with a move, NO_BYTE or MANY_BYTES (byte columns only). */
function singleBytes(dfa: ByteDfa, byteClasses: number): Int16Array {
  const { numStates, numClasses, trans } = dfa;
  const bytes = new ClassBytes(dfa.classOf, byteClasses);
  const single = new Int16Array(numStates);
  for (let s = 0; s < numStates; s++) single[s] = bytes.singleByte((c) => trans[s * numClasses + c]!);
  return single;
}
