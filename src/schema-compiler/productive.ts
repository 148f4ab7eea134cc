/**
 * Finds rules that can derive no finite text (e.g. `{"$ref": "#"}` alone, or a required property
 * that always recurses): a least fixpoint over the rules. The compiler rejects a grammar whose
 * start rule is unproductive, because such a schema has no finite instance.
 */

import type { Expr, Grammar } from "../grammar/index.js";

export function productiveRules(grammar: Grammar): Set<string> {
  const productive = new Set<string>();
  const can = (e: Expr): boolean => {
    switch (e.kind) {
      case "lit":
      case "jsonString":
        return true;
      case "chars":
        return e.ranges.length > 0;
      case "ref":
        return productive.has(e.name);
      case "seq":
        return e.items.every(can);
      case "alt":
        return e.items.some(can);
      case "repeat":
        return e.min === 0 || can(e.item);
    }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, body] of grammar.rules) {
      if (!productive.has(name) && can(body)) {
        productive.add(name);
        changed = true;
      }
    }
  }
  return productive;
}
