/**
 * The schema's size with every `$ref` expanded: a bound on the work of everything that walks the
 * schema alongside an output after decoding (ajv validation, the null-escape pass, grounding).
 * A schema whose references share subschemas can be small and still expand exponentially (a
 * chain of `$defs` each `anyOf: [{$ref: next}, {$ref: next, description}]` doubles per level),
 * and a validator explores that expansion on a failing value. Each subschema counts 1 plus what
 * it applies (`$defs` count only where referenced); a reference back into a schema being
 * expanded (recursion) counts 1, its depth being bounded by the instance. The walk is iterative
 * and memoized per schema object, so it costs the schema's size whatever it expands to.
 */
import { SchemaError } from "../errors.js";
import { forEachSubschema } from "./keywords.js";
import type { RefResolver } from "./refs.js";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

interface Frame {
  readonly node: Record<string, unknown>;
  readonly pointer: string;
  readonly children: { node: unknown; pointer: string }[];
  next: number;
  total: number;
}

/** Throws SCHEMA_TOO_COMPLEX when the expanded size of `root` exceeds `limit`. */
export function checkExpansion(root: unknown, resolver: RefResolver, limit: number): void {
  const done = new WeakMap<object, number>();
  const onPath = new WeakSet<object>();
  const stack: Frame[] = [];
  const open = (node: unknown, pointer: string): number | undefined => {
    if (!isRecord(node)) return 1;
    const known = done.get(node);
    if (known !== undefined) return known;
    if (onPath.has(node)) return 1;
    const children: { node: unknown; pointer: string }[] = [];
    if (typeof node.$ref === "string") {
      const target = resolver.resolve(node.$ref, node, pointer);
      children.push({ node: target.node, pointer: target.pointer });
    }
    forEachSubschema(node, pointer, (child, childPointer) => {
      if (!childPointer.startsWith(`${pointer}/$defs/`) && !childPointer.startsWith(`${pointer}/definitions/`)) children.push({ node: child, pointer: childPointer });
    });
    onPath.add(node);
    stack.push({ node, pointer, children, next: 0, total: 1 });
    return undefined;
  };
  const add = (frame: Frame, cost: number): void => {
    frame.total = Math.min(frame.total + cost, limit + 1);
    if (frame.total > limit) {
      throw new SchemaError(
        "SCHEMA_TOO_COMPLEX",
        `the schema expands to more than ${limit} subschemas once its $refs are followed (maxSchemaExpansion), so validating an output could take seconds; share less through $ref or raise maxSchemaExpansion`,
        { pointer: frame.pointer },
      );
    }
  };
  if (open(root, "") !== undefined) return;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++];
      const cost = open(child.node, child.pointer);
      if (cost !== undefined) add(frame, cost);
      continue;
    }
    stack.pop();
    onPath.delete(frame.node);
    done.set(frame.node, frame.total);
    if (stack.length > 0) add(stack[stack.length - 1], frame.total);
  }
}
