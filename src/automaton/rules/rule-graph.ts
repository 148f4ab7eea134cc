/**
 * The reference graph of a grammar's rules: which rules are reachable, which references are
 * undefined, and where recursion must be cut. A reference costs one unit of recursion depth when
 * it enters a "head": a rule targeted by a back edge of a depth-first search from the start rule.
 * Every cycle contains such a back edge, so bounding head entries bounds every recursion, while
 * references that do not close a cycle (value -> object -> member) cost nothing.
 */
import type { Expr, Grammar } from "../../grammar/index.js";
import { PocketExtractError } from "../../errors.js";

export interface RuleGraph {
  /** Rules whose every reference from inside their strongly connected component is counted. */
  readonly heads: ReadonlySet<string>;
  /** Component id per reachable rule; rules in one cycle share an id. Tarjan numbers components
   *  as it completes them, so a rule's callees outside its component have lower ids. */
  readonly component: ReadonlyMap<string, number>;
  /** Components that contain a cycle (exactly those that contain a head). */
  readonly recursiveComponents: ReadonlySet<number>;
}

export function refsOf(expr: Expr, out: string[] = []): string[] {
  switch (expr.kind) {
    case "ref":
      out.push(expr.name);
      break;
    case "seq":
    case "alt":
      for (const item of expr.items) refsOf(item, out);
      break;
    case "repeat":
      refsOf(expr.item, out);
      break;
    default:
      break;
  }
  return out;
}

export function analyzeRules(grammar: Grammar): RuleGraph {
  const edges = new Map<string, string[]>();
  const visit = (name: string, from: string | undefined): void => {
    if (edges.has(name)) return;
    const expr = grammar.rules.get(name);
    if (expr === undefined) {
      throw new PocketExtractError(
        "GRAMMAR_SYNTAX",
        from === undefined ? `start rule '${name}' is not defined` : `rule '${from}' references undefined rule '${name}'`,
      );
    }
    const targets = [...new Set(refsOf(expr))];
    edges.set(name, targets);
    for (const t of targets) visit(t, name);
  };
  visit(grammar.start, undefined);

  // Tarjan's SCC algorithm, which is also a DFS from the start: back edges give the heads.
  const heads = new Set<string>();
  const component = new Map<string, number>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let counter = 0;
  let components = 0;
  const strong = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        component.set(w, components);
        if (w === v) break;
      }
      components++;
    }
  };
  // The DFS path (not Tarjan's stack) decides back edges.
  const path = new Set<string>();
  const seen = new Set<string>();
  const dfs = (v: string): void => {
    seen.add(v);
    path.add(v);
    for (const w of edges.get(v)!) {
      if (path.has(w)) heads.add(w);
      else if (!seen.has(w)) dfs(w);
    }
    path.delete(v);
  };
  strong(grammar.start);
  dfs(grammar.start);
  return { heads, component, recursiveComponents: new Set([...heads].map((h) => component.get(h)!)) };
}
