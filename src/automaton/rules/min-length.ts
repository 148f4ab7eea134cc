/**
 * The shortest text (in bytes) of each grammar rule, computed on the IR: lit = its UTF-8 length,
 * chars = the shortest encoding in its ranges, seq = sum, alt = min, repeat = min copies, a
 * string = its automaton's shortest token. References follow the recursion-depth rules of
 * rule-automata.ts (entering a head from its own component costs one level; another component
 * starts afresh), so this is exactly the shortest text of the rule's automaton at that depth,
 * without building it: the analysis weighs calls with it before the callee is ever entered.
 * UNREACHABLE marks an empty language (no base case within the depth, or an empty string spec).
 */
import type { Expr, Grammar } from "../../grammar/index.js";
import type { JsonStringSpec } from "../strings/index.js";
import type { RuleGraph } from "./rule-graph.js";
import { UNREACHABLE } from "../fsa/index.js";

export class MinLengths {
  private readonly memo = new Map<string, number>();

  constructor(
    private readonly grammar: Grammar,
    private readonly graph: RuleGraph,
    private readonly maxDepth: number,
    private readonly stringShortest: (leaf: JsonStringSpec) => number,
  ) {}

  /** Shortest text of rule `name` entered with `depth` left. */
  of(name: string, depth: number): number {
    if (depth < 0) return UNREACHABLE;
    const recursive = this.graph.recursiveComponents.has(this.graph.component.get(name)!);
    // Outside a cycle the depth left changes nothing.
    const key = recursive ? `${depth}:${name}` : name;
    let length = this.memo.get(key);
    if (length === undefined) {
      length = this.expr(this.grammar.rules.get(name)!, name, depth);
      this.memo.set(key, length);
    }
    return length;
  }

  /** The SCHEMA_UNSATISFIABLE message for a start rule with no text. */
  emptyMessage(start: string): string {
    const cut = [...this.graph.heads].filter((h) => this.of(h, this.maxDepth) >= UNREACHABLE);
    if (cut.length === 0) return `the grammar (start rule '${start}') accepts no text`;
    return `recursion with no base case in rule ${cut.map((n) => `'${n}'`).join(", ")}: no text is accepted within ${this.maxDepth} levels`;
  }

  private expr(e: Expr, rule: string, depth: number): number {
    switch (e.kind) {
      case "lit":
        return new TextEncoder().encode(e.text).length;
      case "chars":
        return e.ranges.length === 0 ? UNREACHABLE : utf8Length(e.ranges[0]![0]);
      case "seq":
        return e.items.reduce((sum, item) => Math.min(UNREACHABLE, sum + this.expr(item, rule, depth)), 0);
      case "alt":
        return e.items.reduce((min, item) => Math.min(min, this.expr(item, rule, depth)), UNREACHABLE);
      case "repeat": {
        if (e.max < e.min) return UNREACHABLE;
        if (e.min === 0) return 0;
        const item = this.expr(e.item, rule, depth);
        return item >= UNREACHABLE ? UNREACHABLE : Math.min(UNREACHABLE, item * e.min);
      }
      case "ref": {
        const { component, heads } = this.graph;
        if (component.get(e.name) !== component.get(rule)) return this.of(e.name, this.maxDepth);
        return this.of(e.name, heads.has(e.name) ? depth - 1 : depth);
      }
      case "jsonString":
        return this.stringShortest(e);
    }
  }
}

/** Bytes of the UTF-8 encoding of a code point (ranges are sorted, so the first start is the
 *  shortest). */
function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}
