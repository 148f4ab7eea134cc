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
  // Rules by id in the order a depth-first search from the start finds them; edges are each
  // rule's distinct references in written order (the searches below depend on that order).
  const ids = new Map<string, number>();
  const names: string[] = [];
  const edges: number[][] = [];
  const visit = (name: string, from: string | undefined): number => {
    let id = ids.get(name);
    if (id !== undefined) return id;
    const expr = grammar.rules.get(name);
    if (expr === undefined) {
      throw new PocketExtractError(
        "GRAMMAR_SYNTAX",
        from === undefined ? `start rule '${name}' is not defined` : `rule '${from}' references undefined rule '${name}'`,
      );
    }
    id = names.push(name) - 1;
    ids.set(name, id);
    const targets: number[] = [];
    edges[id] = targets;
    for (const t of new Set(refsOf(expr))) targets.push(visit(t, name));
    return id;
  };
  visit(grammar.start, undefined);
  const n = names.length;

  // Tarjan's SCC algorithm, which is also a DFS from the start: back edges give the heads.
  const component = new Map<string, number>();
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const stack: number[] = [];
  const onStack = new Uint8Array(n);
  let counter = 0;
  let components = 0;
  const strong = (v: number): void => {
    index[v] = low[v] = counter++;
    stack.push(v);
    onStack[v] = 1;
    for (const w of edges[v]!) {
      if (index[w]! < 0) {
        strong(w);
        low[v] = Math.min(low[v]!, low[w]!);
      } else if (onStack[w] === 1) {
        low[v] = Math.min(low[v]!, index[w]!);
      }
    }
    if (low[v] === index[v]) {
      for (;;) {
        const w = stack.pop()!;
        onStack[w] = 0;
        component.set(names[w]!, components);
        if (w === v) break;
      }
      components++;
    }
  };
  // The DFS path (not Tarjan's stack) decides back edges.
  const heads = new Set<string>();
  const recursiveComponents = new Set<number>();
  const onPath = new Uint8Array(n);
  const seen = new Uint8Array(n);
  const dfs = (v: number): void => {
    seen[v] = 1;
    onPath[v] = 1;
    for (const w of edges[v]!) {
      if (onPath[w] === 1) heads.add(names[w]!);
      else if (seen[w] === 0) dfs(w);
    }
    onPath[v] = 0;
  };
  strong(0);
  dfs(0);
  for (const h of heads) recursiveComponents.add(component.get(h)!);
  return { heads, component, recursiveComponents };
}
