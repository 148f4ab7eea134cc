/**
 * Proofs that the branches of a oneOf are pairwise disjoint: no JSON value satisfies two of them.
 * Then "exactly one branch" is "at least one branch", and the grammar's alternatives (anyOf)
 * enforce the oneOf exactly. Without a proof the compiler keeps anyOf plus a check after decoding.
 *
 * Each branch, conjoined with the oneOf's siblings, is summarized by a Shape: a superset of its
 * instances, built from the keywords that pin instances down (`type`, `enum`/`const`, and for
 * objects `required`, the declared properties' own shapes, and the names that are forbidden by
 * `properties: {p: false}`, a false pattern, `additionalProperties: false` or `not: {required:
 * [p]}`). allOf and `$ref` targets intersect shapes, anyOf/oneOf unite them, and every other
 * keyword is ignored, which only makes a shape larger; a shape also admits only the values its
 * schema does not reject (where the evaluator decides), and lists the subschemas every instance
 * satisfies (for negate.ts: a part a branch shares with another cannot fail beside it). Since
 * each shape contains its branch, disjoint shapes prove disjoint branches. Two shapes are
 * disjoint when
 *  - their types share nothing. "integer" lies inside "number"; a branch whose type nothing pins
 *    has every type (`{"properties": ..}` alone also accepts strings);
 *  - one has finitely many values (enum/const, also from the siblings) and none of them is in the
 *    other: outside its shape, or rejected by its schema (the evaluator, where it decides); values
 *    the own schema rejects are dropped first;
 *  - their only common type is object, and a name that one requires is forbidden by the other,
 *    or its value shapes on the two sides are disjoint (a discriminator, `kind: {const: "a"}`
 *    required on one side and `kind: {const: "b"}` on the other).
 */

import { isAnnotationKeyword, isRecord, jsonEqual, normalizeNode, SchemaNode } from "../schema/index.js";
import type { CompileContext } from "./context.js";
import { Evaluator, testRegex } from "./evaluate.js";

type Kind = "null" | "boolean" | "object" | "array" | "string" | "integer" | "fraction";

interface Shape {
  readonly kinds: ReadonlySet<Kind>;
  /** When defined, every instance is one of these values. */
  readonly values?: readonly unknown[];
  /** Names every object instance has. */
  readonly required: ReadonlySet<string>;
  /** The shape of the value of property `name` in object instances that have it. */
  readonly property: (name: string) => Shape;
  /** Whether object instances never have property `name`. */
  readonly absent: (name: string) => boolean;
  /** False when `v` is certainly no instance (the evaluator rejects it); true otherwise. */
  readonly admits: (v: unknown) => boolean;
  /** When defined, object instances have no other names (additionalProperties: false). */
  readonly names?: ReadonlySet<string>;
  /** Object instances have at most this many properties. */
  readonly maxProperties: number;
  /** Subschemas the value of property `name` satisfies in object instances that have it. */
  readonly schemasOf: (name: string) => readonly unknown[];
  /** Subschemas every instance satisfies (the schema itself, its allOf parts and $ref targets). */
  readonly holds: readonly unknown[];
  /** The shape of every item of array instances, and subschemas every item satisfies. */
  readonly item: () => Shape;
  readonly itemSchemas: readonly unknown[];
}

const ALL_KINDS: readonly Kind[] = ["null", "boolean", "object", "array", "string", "integer", "fraction"];
const KINDS_OF_TYPE = {
  null: ["null"], boolean: ["boolean"], object: ["object"], array: ["array"], string: ["string"], integer: ["integer"], number: ["integer", "fraction"],
} satisfies Record<string, readonly Kind[]>;
/** Nesting of $ref targets and property shapes looked at (deeper: anything). */
const MAX_DEPTH = 6;

const has = (o: Record<string, unknown>, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);
const NO_SCHEMAS: ReadonlyMap<string, unknown> = new Map();

const ANY: Shape = { kinds: new Set(ALL_KINDS), required: new Set(), property: () => ANY, absent: () => false, admits: () => true, maxProperties: Infinity, schemasOf: () => [], holds: [], item: () => ANY, itemSchemas: [] };
const NONE: Shape = { ...ANY, kinds: new Set() };

function kindOf(v: unknown): Kind {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "fraction";
  return typeof v as "boolean" | "string" | "object";
}

function memo<T>(f: (name: string) => T): (name: string) => T {
  const cache = new Map<string, T>();
  return (name) => {
    if (!cache.has(name)) cache.set(name, f(name));
    return cache.get(name)!;
  };
}

function member(v: unknown, s: Shape): boolean {
  if (!s.kinds.has(kindOf(v))) return false;
  if (s.values !== undefined && !s.values.some((w) => jsonEqual(v, w))) return false;
  if (isRecord(v) && !([...s.required].every((n) => has(v, n)) && Object.keys(v).every((n) => !s.absent(n) && member(v[n], s.property(n))))) return false;
  return s.admits(v);
}

/** Drops what the shape's own facts exclude: objects missing a forbidden required name, values of other kinds. */
function tidy(s: Shape): Shape {
  const kinds = new Set(s.kinds);
  if ([...s.required].some((n) => s.absent(n))) kinds.delete("object");
  const out = { ...s, kinds };
  return s.values === undefined ? out : { ...out, values: s.values.filter((v) => member(v, out)) };
}

function intersect(a: Shape, b: Shape): Shape {
  if (a === ANY) return b;
  if (b === ANY) return a;
  const values = a.values === undefined ? b.values : b.values === undefined ? a.values : a.values.filter((v) => b.values!.some((w) => jsonEqual(v, w)));
  return tidy({
    kinds: new Set([...a.kinds].filter((k) => b.kinds.has(k))),
    ...(values !== undefined ? { values } : {}),
    required: new Set([...a.required, ...b.required]),
    property: memo((n) => intersect(a.property(n), b.property(n))),
    absent: (n) => a.absent(n) || b.absent(n),
    admits: (v) => a.admits(v) && b.admits(v),
    ...(a.names === undefined ? b.names === undefined ? {} : { names: b.names } : { names: b.names === undefined ? a.names : new Set([...a.names].filter((n) => b.names!.has(n))) }),
    maxProperties: Math.min(a.maxProperties, b.maxProperties),
    schemasOf: (n) => [...a.schemasOf(n), ...b.schemasOf(n)],
    holds: [...a.holds, ...b.holds],
    item: () => intersect(a.item(), b.item()),
    itemSchemas: [...a.itemSchemas, ...b.itemSchemas],
  });
}

function unite(a: Shape, b: Shape): Shape {
  if (a.kinds.size === 0) return b;
  if (b.kinds.size === 0) return a;
  // Object facts of a side without objects say nothing about the union's objects.
  if (!a.kinds.has("object") || !b.kinds.has("object")) {
    const { required, property, absent, names, maxProperties, schemasOf } = a.kinds.has("object") ? a : b;
    return { kinds: new Set([...a.kinds, ...b.kinds]), ...valuesOfEither(a, b), required, property, absent, admits: eitherAdmits(a, b), ...(names !== undefined ? { names } : {}), maxProperties, schemasOf, holds: holdsOfEither(a, b), ...itemsOfEither(a, b) };
  }
  return {
    kinds: new Set([...a.kinds, ...b.kinds]),
    ...valuesOfEither(a, b),
    required: new Set([...a.required].filter((n) => b.required.has(n))),
    property: memo((n) => unite(a.property(n), b.property(n))),
    absent: (n) => a.absent(n) && b.absent(n),
    admits: eitherAdmits(a, b),
    ...(a.names !== undefined && b.names !== undefined ? { names: new Set([...a.names, ...b.names]) } : {}),
    maxProperties: Math.max(a.maxProperties, b.maxProperties),
    schemasOf: (n) => a.schemasOf(n).filter((x) => b.schemasOf(n).includes(x)),
    holds: holdsOfEither(a, b),
    ...itemsOfEither(a, b),
  };
}

/** The item facts of a union: from the side with arrays, or what both sides know. */
function itemsOfEither(a: Shape, b: Shape): Pick<Shape, "item" | "itemSchemas"> {
  if (!a.kinds.has("array")) return { item: b.item, itemSchemas: b.itemSchemas };
  if (!b.kinds.has("array")) return { item: a.item, itemSchemas: a.itemSchemas };
  return { item: () => unite(a.item(), b.item()), itemSchemas: a.itemSchemas.filter((x) => b.itemSchemas.includes(x)) };
}

const holdsOfEither = (a: Shape, b: Shape): readonly unknown[] => a.holds.filter((x) => b.holds.includes(x));

const eitherAdmits = (a: Shape, b: Shape) => (v: unknown): boolean => a.admits(v) || b.admits(v);

function valuesOfEither(a: Shape, b: Shape): { values?: readonly unknown[] } {
  return a.values !== undefined && b.values !== undefined ? { values: [...a.values, ...b.values] } : {};
}

function disjoint(a: Shape, b: Shape): boolean {
  if (a.values?.every((v) => !member(v, b)) || b.values?.every((v) => !member(v, a))) return true;
  const common = [...a.kinds].filter((k) => b.kinds.has(k));
  if (common.length === 0) return true;
  return common.length === 1 && common[0] === "object" && (objectsDisjoint(a, b) || objectsDisjoint(b, a));
}

/** A name `a` requires that `b` forbids, or whose value shapes exclude each other; or more required names than `b` allows properties. */
function objectsDisjoint(a: Shape, b: Shape): boolean {
  return a.required.size > b.maxProperties || [...a.required].some((n) => b.absent(n) || disjoint(a.property(n), b.property(n)));
}

/** Shapes of schemas within one compilation ($ref targets resolved, results cached by node). */
class Shaper {
  private readonly cache = new WeakMap<object, Shape>();
  private readonly evaluator: Evaluator;

  constructor(private readonly ctx: CompileContext, private readonly pointer: string) {
    this.evaluator = new Evaluator(ctx, pointer);
  }

  of(schema: unknown, depth: number): Shape {
    if (schema === false) return NONE;
    if (!isRecord(schema) || depth > MAX_DEPTH) return ANY;
    let s = this.cache.get(schema);
    if (s === undefined) {
      s = this.compute(schema, depth);
      this.cache.set(schema, s);
    }
    return s;
  }

  private compute(schema: Record<string, unknown>, depth: number): Shape {
    const written = new SchemaNode(schema, this.pointer);
    const resolved = this.ctx.resolver.refTarget(written);
    const target = resolved === undefined ? ANY : this.of(resolved.node, depth + 1);
    if (resolved !== undefined && this.ctx.legacyRefs) return target;
    const node = new SchemaNode(normalizeNode(schema), this.pointer);
    let s = intersect(target, this.own(node, depth));
    for (const b of node.peek("allOf") ?? []) s = intersect(s, this.of(b, depth + 1));
    for (const group of [node.peek("anyOf"), node.peek("oneOf")]) {
      if (group !== undefined && group.length > 0) s = intersect(s, group.map((b) => this.of(b, depth + 1)).reduce(unite));
    }
    // The schema itself judges values (it subsumes what the parts above admit), and holds.
    return tidy({ ...s, admits: (v) => this.evaluator.satisfies(schema, v) !== false, holds: [schema, ...s.holds] });
  }

  /** What `type`, `enum` and the object keywords of one node say. */
  private own(node: SchemaNode, depth: number): Shape {
    const types = node.peek("type");
    const kinds = new Set<Kind>(types === undefined ? ALL_KINDS : [...types].flatMap((t) => KINDS_OF_TYPE[t]));
    const properties = node.peek("properties") ?? NO_SCHEMAS;
    const patterns = node.peek("patternProperties") ?? NO_SCHEMAS;
    const values = node.peek("enum");
    const closed = patterns.size === 0 && node.get("additionalProperties") === false;
    const excluded = namesNotRequired(node.raw.not);
    // `items` as one schema for every item (not a draft-4 tuple, not after prefixItems).
    const items = node.has("prefixItems") ? undefined : node.raw.items;
    const itemSchema = typeof items === "boolean" || isRecord(items) ? items : undefined;
    return tidy({
      kinds,
      ...(values !== undefined ? { values } : {}),
      required: new Set(node.peek("required")),
      property: memo((n) => this.propertyShape(node, properties, patterns, n, depth)),
      absent: (n) => excluded.has(n) || forbidden(node, properties, patterns, n),
      admits: () => true,
      ...(closed ? { names: new Set([...properties].filter(([, v]) => v !== false).map(([n]) => n)) } : {}),
      maxProperties: node.peek("maxProperties") ?? Infinity,
      schemasOf: (n) => (properties.has(n) ? [properties.get(n)] : []),
      holds: [],
      item: itemSchema === undefined ? () => ANY : () => this.of(itemSchema, depth + 1),
      itemSchemas: itemSchema === undefined ? [] : [itemSchema],
    });
  }
  /**
   * The shape of property `name`'s value: its declared schema and those of the patterns it
   * matches, or additionalProperties when it is neither declared nor matched (ANY where a regex
   * cannot be run).
   */
  private propertyShape(node: SchemaNode, properties: ReadonlyMap<string, unknown>, patterns: ReadonlyMap<string, unknown>, name: string, depth: number): Shape {
    const matches = [...patterns.keys()].map((p) => testRegex(p, name));
    let shape = properties.has(name) ? this.of(properties.get(name), depth + 1) : ANY;
    if (matches.includes(undefined)) return shape;
    [...patterns.values()].forEach((s, i) => {
      if (matches[i]) shape = intersect(shape, this.of(s, depth + 1));
    });
    const additional = node.get("additionalProperties");
    return properties.has(name) || matches.includes(true) || additional === undefined ? shape : this.of(additional, depth + 1);
  }
}

/**
 * The names a `not` forbids: `not: {required: [p]}` (an object without p), or an anyOf of such
 * (none of them present). Other forms forbid no single name.
 */
function namesNotRequired(not: unknown): ReadonlySet<string> {
  if (!isRecord(not)) return NO_NAMES;
  const keys = Object.keys(not).filter((k) => !isAnnotationKeyword(k));
  if (keys.length !== 1) return NO_NAMES;
  const required = not.required;
  if (keys[0] === "required") return Array.isArray(required) && required.length === 1 && typeof required[0] === "string" ? new Set(required) : NO_NAMES;
  if (keys[0] !== "anyOf" || !Array.isArray(not.anyOf)) return NO_NAMES;
  const each = not.anyOf.map(namesNotRequired);
  return each.includes(NO_NAMES) ? NO_NAMES : new Set(each.flatMap((n) => [...n]));
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Whether the node's object keywords forbid property `name` (a regex that cannot be run counts as matching). */
function forbidden(node: SchemaNode, properties: ReadonlyMap<string, unknown>, patterns: ReadonlyMap<string, unknown>, name: string): boolean {
  if (properties.has(name)) return properties.get(name) === false;
  const matching = [...patterns.keys()].filter((p) => testRegex(p, name) !== false);
  if (matching.some((p) => patterns.get(p) === false && testRegex(p, name) === true)) return true;
  return matching.length === 0 && node.get("additionalProperties") === false;
}

/** A JSON type as an instance kind ("integer" lies inside "number"). */
export type TypeName = "null" | "boolean" | "object" | "array" | "string" | "number";

/** Facts known about the values of a conjunction of schemas (what negateWithin may rely on). */
export interface Beside {
  /** The types the values may have; `integral`: their numbers are integers. */
  readonly types: ReadonlySet<TypeName>;
  readonly integral: boolean;
  /** When defined, the objects have no other names. */
  readonly names: ReadonlySet<string> | undefined;
  /** Whether the objects never have property `name`. */
  readonly absent: (name: string) => boolean;
  /** Subschemas that the value of property `name` satisfies (input nodes, as written). */
  readonly schemasOf: (name: string) => readonly unknown[];
  /** The facts about the value of property `name`. */
  readonly property: (name: string) => Beside;
  /** When defined, every value is one of these (a superset). */
  readonly values: readonly unknown[] | undefined;
  /** Subschemas every value satisfies (as written), and whether no value satisfies `schema`. */
  readonly holds: readonly unknown[];
  readonly disjointFrom: (schema: unknown) => boolean;
  /** Subschemas every array item satisfies (as written), and whether no item satisfies `schema`. */
  readonly itemSchemas: readonly unknown[];
  readonly itemsDisjointFrom: (schema: unknown) => boolean;
}

/** Disjointness of conjunctions of schemas within one compilation (shapes cached by node). */
export class DisjointnessProver {
  private readonly shaper: Shaper;
  /** Conjunctions by the identities of their schemas: a oneOf rewriting asks about each branch once per other branch. */
  private readonly conjunctions = new Map<string, Shape>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 0;

  constructor(ctx: CompileContext, pointer: string) {
    this.shaper = new Shaper(ctx, pointer);
  }

  /** Whether no value satisfies all of `a` and all of `b` (false: not proven). */
  disjoint(a: readonly unknown[], b: readonly unknown[]): boolean {
    return disjoint(this.conjunction(a), this.conjunction(b));
  }

  /** When finitely many values can satisfy all of `schemas`: a list that holds them all (a superset). */
  values(schemas: readonly unknown[]): readonly unknown[] | undefined {
    return this.conjunction(schemas).values;
  }

  /** What every value satisfying all of `schemas` is known to satisfy (for negateWithin). */
  beside(schemas: readonly unknown[]): Beside {
    return this.besideOf(this.conjunction(schemas));
  }

  private besideOf(shape: Shape): Beside {
    return {
      types: new Set([...shape.kinds].map((k) => (k === "integer" || k === "fraction" ? "number" : k))),
      integral: !shape.kinds.has("fraction"),
      names: shape.names,
      absent: shape.absent,
      schemasOf: shape.schemasOf,
      values: shape.values,
      holds: shape.holds,
      disjointFrom: (schema) => disjoint(shape, this.shaper.of(schema, 0)),
      property: (name) => this.besideOf(shape.property(name)),
      itemSchemas: shape.itemSchemas,
      itemsDisjointFrom: (schema) => disjoint(shape.item(), this.shaper.of(schema, 0)),
    };
  }

  private conjunction(schemas: readonly unknown[]): Shape {
    const key = schemas.map((s) => (typeof s === "object" && s !== null ? this.idOf(s) : String(s))).join(",");
    let shape = this.conjunctions.get(key);
    if (shape === undefined) {
      shape = schemas.map((s) => this.shaper.of(s, 0)).reduce(intersect, ANY);
      this.conjunctions.set(key, shape);
    }
    return shape;
  }

  private idOf(node: object): number {
    let id = this.ids.get(node);
    if (id === undefined) this.ids.set(node, (id = this.nextId++));
    return id;
  }
}

/**
 * The pairs of `branches` (indices i < j), each conjoined with `context` (the oneOf's siblings),
 * not proven disjoint; empty when the branches are pairwise disjoint.
 */
export function overlappingPairs(prover: DisjointnessProver, context: unknown, branches: readonly unknown[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < branches.length; i++) {
    for (let j = i + 1; j < branches.length; j++) if (!prover.disjoint([context, branches[i]], [context, branches[j]])) out.push([i, j]);
  }
  return out;
}
