/**
 * The schema's size with every `$ref` expanded: a bound on the work of everything that walks the
 * schema alongside an output after decoding (ajv validation, the null-escape pass, grounding).
 * A schema whose references share subschemas can be small and still expand exponentially (a
 * chain of `$defs` each `anyOf: [{$ref: next}, {$ref: next, description}]` doubles per level),
 * and a validator explores that expansion on a failing value. Each subschema counts 1 plus what
 * it applies (`$defs` count only where referenced); a reference back into a schema being
 * expanded (recursion) counts 1, its depth being bounded by the instance, unless the loop never
 * descends into the instance (only `$ref` and in-place applicators such as `anyOf`): every
 * validator would recurse forever there, so it is refused with SCHEMA_REF. The walk is iterative
 * and memoized per schema object, so it costs the schema's size whatever it expands to.
 */
import { SchemaError } from "../errors.js";
import { isRecord } from "../util/index.js";
import { forEachSubschema, keywordsWhere } from "./keywords.js";
import type { RefResolver } from "./refs.js";

interface Child {
  readonly node: unknown;
  readonly pointer: string;
  /** Reached without descending into the instance (`$ref` or an in-place applicator). */
  readonly inPlace: boolean;
}

interface Frame {
  readonly node: Record<string, unknown>;
  readonly pointer: string;
  readonly children: Child[];
  next: number;
  total: number;
}

/** Keywords whose subschemas apply to the instance itself, not to a part of it. */
const IN_PLACE: ReadonlySet<string> = new Set(keywordsWhere((s) => s.inPlace === true));

/** Throws SCHEMA_TOO_COMPLEX when the expanded size of `root` exceeds `limit`. */
export function checkExpansion(root: unknown, resolver: RefResolver, limit: number): void {
  const done = new WeakMap<object, number>();
  const onPath = new WeakSet<object>();
  const stack: Frame[] = [];
  const inPlaceEdges = new Map<object, { readonly pointer: string; readonly targets: object[] }>();
  const open = (node: unknown, pointer: string): number | undefined => {
    if (!isRecord(node)) return 1;
    const known = done.get(node);
    if (known !== undefined) return known;
    if (onPath.has(node)) return 1;
    const children: Child[] = [];
    if (typeof node.$ref === "string") {
      const target = resolver.resolve(node.$ref, node, pointer);
      children.push({ node: target.node, pointer: target.pointer, inPlace: true });
    }
    forEachSubschema(node, pointer, (child, childPointer) => {
      if (childPointer.startsWith(`${pointer}/$defs/`) || childPointer.startsWith(`${pointer}/definitions/`)) return;
      const keyword = childPointer.slice(pointer.length + 1).split("/", 1)[0] ?? "";
      children.push({ node: child, pointer: childPointer, inPlace: IN_PLACE.has(keyword) });
    });
    const targets = children.filter((c) => c.inPlace && isRecord(c.node)).map((c) => c.node as object);
    if (targets.length > 0) inPlaceEdges.set(node, { pointer, targets });
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
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.children.length) {
      const child = frame.children[frame.next++]!;
      const cost = open(child.node, child.pointer);
      if (cost !== undefined) add(frame, cost);
      continue;
    }
    stack.pop();
    onPath.delete(frame.node);
    done.set(frame.node, frame.total);
    const parent = stack.at(-1);
    if (parent !== undefined) add(parent, frame.total);
  }
  refuseLoopInPlace(inPlaceEdges);
}

/**
 * A cycle among the in-place edges (`$ref` and applicators to the same instance) never consumes
 * any of the instance: found by an iterative depth-first search over those edges alone.
 */
function refuseLoopInPlace(edges: ReadonlyMap<object, { readonly pointer: string; readonly targets: readonly object[] }>): void {
  const finished = new WeakSet<object>();
  const onPath = new WeakSet<object>();
  for (const start of edges.keys()) {
    if (finished.has(start)) continue;
    const stack: { node: object; next: number }[] = [{ node: start, next: 0 }];
    onPath.add(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const out = edges.get(top.node);
      const target = out?.targets[top.next++];
      if (target === undefined) {
        stack.pop();
        onPath.delete(top.node);
        finished.add(top.node);
        continue;
      }
      if (onPath.has(target)) {
        throw new SchemaError(
          "SCHEMA_REF",
          `this subschema loops back to ${edges.get(target)?.pointer || "#"} without descending into a property or an item, so every validator would recurse forever; make the recursion go through "properties", "items" or similar`,
          { keyword: "$ref", pointer: out?.pointer ?? "" },
        );
      }
      if (!finished.has(target)) {
        onPath.add(target);
        stack.push({ node: target, next: 0 });
      }
    }
  }
}
