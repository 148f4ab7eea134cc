/**
 * The typed schema node: one JSON Schema object, read through the keyword table. Each keyword's
 * value is parsed by its value kind's parser into a typed field (a count is a number, `properties`
 * a ReadonlyMap, `type` a set of type names ...) or refused with the keyword's typed SchemaError
 * ("minLength must be a non-negative integer"). Fields are parsed on first read, not up front: a
 * keyword the compiler never needs (say `minLength` on an integer schema) is never judged, exactly
 * as JSON Schema itself ignores keywords of other types. Subschemas inside a field stay as written
 * (`unknown`): they are parsed in turn when compiled, with their own pointer.
 */

import { SchemaError } from "../errors.js";
import { isRecord } from "../util/index.js";
import { KEYWORDS, type Keyword, type ValueKind } from "./keywords.js";
import type { JsonSchemaObject } from "./types.js";

/** The type names of `type`. */
export const JSON_TYPES = ["null", "boolean", "object", "array", "number", "integer", "string"] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** The typed field of each value kind. */
interface TypedValue {
  schema: unknown;
  schemas: readonly unknown[];
  schemaList: readonly unknown[];
  schemaMap: ReadonlyMap<string, unknown>;
  items: unknown;
  dependencies: unknown;
  types: ReadonlySet<JsonType>;
  count: number;
  number: number;
  exclusiveBound: number | boolean;
  pattern: string;
  string: string;
  strings: readonly string[];
  values: readonly unknown[];
  value: unknown;
  ref: string;
  any: unknown;
}

export type KeywordValue<K extends Keyword> = TypedValue[(typeof KEYWORDS)[K]["value"]];

type Parser<V extends ValueKind> = (v: unknown, keyword: string) => TypedValue[V] | Invalid;

/** Why a value does not parse (the message of its SchemaError). */
class Invalid {
  constructor(readonly message: string) {}
}

const asMap = (v: Record<string, unknown>): ReadonlyMap<string, unknown> => new Map(Object.entries(v));
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isFinite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const same = (v: unknown): unknown => v;

/** One parser per value kind. `null` reads as absent for the container kinds, as it always has. */
const PARSERS: { readonly [V in ValueKind]: Parser<V> } = {
  schema: same,
  // An empty list parses (the evaluator judges it as written); the compiler refuses it with the same message.
  schemas: (v, k) => (Array.isArray(v) ? v : new Invalid(`${k} must be a non-empty array`)),
  schemaList: (v, k) => (Array.isArray(v) ? v : new Invalid(`${k} must be an array`)),
  schemaMap: (v, k) => (isRecord(v) ? asMap(v) : new Invalid(`${k} must be an object`)),
  items: same,
  dependencies: same,
  types: (v) => {
    const list = Array.isArray(v) ? v : [v];
    const bad = list.findIndex((x) => typeof x !== "string" || !(JSON_TYPES as readonly string[]).includes(x));
    return bad === -1 ? new Set(list as JsonType[]) : new Invalid(`unknown type ${JSON.stringify(list[bad])}`);
  },
  // Draft 2019+ allows 5.0 for 5; Number.isInteger covers that.
  count: (v, k) => (isCount(v) ? v : new Invalid(`${k} must be a non-negative integer`)),
  number: (v, k) => (isFinite(v) ? v : new Invalid(`${k} must be a number`)),
  exclusiveBound: (v, k) => (isFinite(v) || typeof v === "boolean" ? v : new Invalid(`${k} must be a number`)),
  pattern: (v) => (typeof v === "string" ? v : new Invalid("a pattern must be a string")),
  string: (v, k) => (typeof v === "string" ? v : new Invalid(`${k} must be a string`)),
  strings: (v, k) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? v : new Invalid(`${k} must be an array of strings`)),
  values: (v, k) => (Array.isArray(v) ? v : new Invalid(`${k} must be an array`)),
  value: same,
  ref: (v, k) => (typeof v === "string" ? v : new Invalid(`${k} must be a string`)),
  any: same,
};

const NULL_IS_ABSENT: ReadonlySet<ValueKind> = new Set(["schemaList", "schemaMap", "strings"]);
/** Kinds whose parse builds something (a Map, a Set) or walks a list: parsed once per node. The
 *  others are one type check, cheaper to repeat than to cache. */
const CACHED: ReadonlySet<ValueKind> = new Set(["schemaMap", "types", "strings"]);

interface Reader {
  readonly parse: Parser<ValueKind>;
  readonly cached: boolean;
  readonly nullIsAbsent: boolean;
}

/** Each table keyword's reader, looked up once per read. */
const READERS: ReadonlyMap<string, Reader> = new Map(
  Object.entries(KEYWORDS).map(([k, spec]) => [k, { parse: PARSERS[spec.value] as Parser<ValueKind>, cached: CACHED.has(spec.value), nullIsAbsent: NULL_IS_ABSENT.has(spec.value) }]),
);

/** One schema object with typed, lazily parsed keyword fields. */
export class SchemaNode {
  private parsed: Map<string, unknown> | undefined;

  /** `raw` as written (error messages, report pointers, identity for the resolver's bases);
   *  `pointer` its JSON pointer, where its keywords' errors point. */
  constructor(readonly raw: JsonSchemaObject, readonly pointer: string) {}

  /** Whether the keyword is written (whatever its value). */
  has(keyword: string): boolean {
    return keyword in this.raw;
  }

  /** The keywords as written, in order. */
  keywords(): string[] {
    return Object.keys(this.raw);
  }

  /** The keyword's typed value, undefined when absent; a malformed value is its SchemaError. */
  get<K extends Keyword>(keyword: K): KeywordValue<K> | undefined {
    const v = this.read(keyword);
    if (v instanceof Invalid) throw new SchemaError("SCHEMA_INVALID", v.message, { keyword, pointer: this.pointer });
    return v;
  }

  /** The keyword's typed value, undefined when absent or malformed (for verdicts that may stay
   *  undecided rather than fail). */
  peek<K extends Keyword>(keyword: K): KeywordValue<K> | undefined {
    const v = this.read(keyword);
    return v instanceof Invalid ? undefined : v;
  }

  private read<K extends Keyword>(keyword: K): KeywordValue<K> | Invalid | undefined {
    const raw = this.raw[keyword];
    if (raw === undefined) return undefined;
    const reader = READERS.get(keyword)!;
    if (raw === null && reader.nullIsAbsent) return undefined;
    if (!reader.cached) return reader.parse(raw, keyword) as KeywordValue<K> | Invalid;
    if (this.parsed?.has(keyword) === true) return this.parsed.get(keyword) as KeywordValue<K> | Invalid;
    const v = reader.parse(raw, keyword);
    (this.parsed ??= new Map()).set(keyword, v);
    return v as KeywordValue<K> | Invalid;
  }
}
