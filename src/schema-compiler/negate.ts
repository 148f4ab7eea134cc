/**
 * `not` rewritten as a positive schema with exactly the same instances, where one is known. A
 * schema is the conjunction of its keywords (annotations aside), so `not` of it is the union of
 * its keywords' negations, each being:
 *   true -> false, false -> true, {} -> false;
 *   type T -> the other types (for "integer", the non-integers too: `{type: "number", not: {type:
 *     "integer"}}`, which the number compiler spells, non-integer.ts);
 *   enum V (type-filtered) -> the other types, the other boolean, the strings not in V, kept as
 *     `{type: "string", not: {enum: strings}}`, which the compiler applies as the string token's
 *     exclusion list, and the numbers in the open intervals around V's; an array or object in V
 *     has no exact complement;
 *   not X -> X; anyOf [A..] -> allOf [not A..]; allOf [A..] -> anyOf [not A..];
 *   oneOf [A..] -> allOf [not A..] (none holds), or allOf [Ai, Aj] for a pair not proven disjoint;
 *   $ref -> not of its target (its siblings are keywords like any other, or ignored before 2019-09);
 *   required [a, ..] -> an object without a (`properties: {a: false}`), or ...;
 *   properties {p: S, ..} -> an object whose p is not S, or ...; a required p: `properties: {p:
 *     not S}` (absent or failing, one part);
 *   minLength n -> a string with maxLength n-1 (and so for the other counts and numeric bounds);
 *   propertyNames N -> an object with a property (N false) or with one of the names N rejects,
 *     when those are finitely many (N is `not: {enum: names}`), else `{type: "object", not:
 *     {propertyNames: N}}`, some entry N rejects, which the object compiler writes (some-entry.ts);
 *   additionalProperties / patternProperties whose schemas all accept everything -> false; with a closed set
 *     of names known (negateWithin), one of those names with a value its schema rejects; else
 *     `{type: "object", not: ..}` of the keyword alone, some entry failing it (some-entry.ts);
 *   dependencies / dependentRequired / dependentSchemas -> an object with one of the names, and
 *     a name of its list missing or its schema's negation;
 *   a subschema the values are known to satisfy (negateWithin: shared with the branch) -> false;
 *   items: false -> a non-empty array; items S -> an array that contains an item of not S;
 *   contains C (no minContains/maxContains) -> an array whose items are all not C;
 *   format F -> false for a name neither JSON Schema nor ajv-formats defines (an annotation); for
 *     ipv4 and ipv6, whose grammar is exactly the validator's, the strings its pattern does not match;
 *   pattern P -> `{type: "string", not: {pattern: P}}`, which the compiler applies as the string
 *     token's excluded patterns (any pattern the automaton can run);
 * Anything else (other formats, multipleOf, minContains, if, ...) has no
 * exact positive form here; the compiler then checks the `not` after decoding.
 */

import { formatNames } from "ajv-formats/dist/formats.js";
import { jsonString, type Expr } from "../grammar/index.js";
import { isAnnotationKeyword, isKeyword, isRecord, jsonEqual, KEYWORDS, normalizeNode, SchemaNode, SPEC_FORMATS, type JsonSchema, type JsonType, type Keyword, type KeywordSpec } from "../schema/index.js";
import { mapDefined } from "../util/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { Evaluator, testRegex } from "./evaluate.js";
import { formatPattern } from "./strings.js";
import { DisjointnessProver, type Beside, type TypeName } from "./exclusive.js";
import { enumOnly } from "./merge.js";
import { isNameList, type DependencyKeyword } from "./dependencies.js";
import { acceptsEverything } from "./trivial-schemas.js";
import { failingEntries, runnablePattern } from "./entry-forms.js";
import { typesOf } from "./values.js";

/** A keyword occurrence the rewriting took apart: exact wherever the rewriting is used. */
export interface Consumed {
  readonly node: object;
  readonly keyword: "not" | "contains" | "oneOf" | DependencyKeyword;
}

export interface Negation {
  readonly schema: JsonSchema;
  /** Keyword occurrences (a `not`, a `contains`) the rewriting turned into positive keywords. */
  readonly consumed: readonly Consumed[];
}

/** Reports the occurrences a rewriting took apart as enforced (once the rewriting is compiled). */
export function recordConsumed(ctx: CompileContext, consumed: readonly Consumed[], pointer: string): void {
  for (const { node, keyword } of consumed) ctx.report.verdict(node, keyword, true, "rewritten as a positive schema", pointer);
}

export const TYPE_NAMES: readonly TypeName[] = ["null", "boolean", "object", "array", "string", "number"];

export function negate(ctx: CompileContext, schema: unknown, pointer: string): Negation | undefined {
  const consumed: Consumed[] = [];
  const out = new Negator(ctx, pointer, consumed).negate(schema, 0);
  return out === undefined ? undefined : { schema: out, consumed };
}

export type { TypeName } from "./exclusive.js";

/** The values a negation is asked about: of one type, and for objects, with known facts. */
interface Scope {
  readonly type: TypeName;
  readonly beside?: Beside;
}

/**
 * The values of type `type` that `schema` rejects, among values that satisfy what `beside` knows
 * (for objects: the names they may have, the subschemas their properties satisfy), as a positive
 * schema. An exact form exists more often than for the whole complement: keywords about other
 * types hold for every value of `type`; with a closed set of names, additionalProperties and
 * patternProperties become a choice among those names; a property whose value is known to
 * satisfy the same subschema cannot fail it.
 */
export function negateWithin(ctx: CompileContext, schema: unknown, pointer: string, type: TypeName, beside?: Beside): Negation | undefined {
  const consumed: Consumed[] = [];
  const out = new Negator(ctx, pointer, consumed).negate(schema, 0, beside === undefined ? { type } : { type, beside });
  // One flat anyOf: the oneOf rewriting drops each of its parts proven disjoint from the branch.
  return out === undefined ? undefined : { schema: ofType(type, anyOfOf(flatParts(out))), consumed };
}

/** The parts of a bare anyOf, those of its bare anyOf parts in turn (the schema itself otherwise). */
function flatParts(schema: JsonSchema): JsonSchema[] {
  return isBareAnyOf(schema) ? schema.anyOf.flatMap(flatParts) : [schema];
}

/** `schema` restricted to values of `type`, an anyOf kept as one (each part typed). */
function ofType(type: TypeName, schema: JsonSchema): JsonSchema {
  const typed = (part: JsonSchema): JsonSchema => (part === false ? false : part === true ? { type } : { allOf: [{ type }, part] });
  return anyOfOf(isBareAnyOf(schema) ? (schema.anyOf as JsonSchema[]).map(typed) : [typed(schema)]);
}

const isBareAnyOf = (schema: JsonSchema): schema is { anyOf: JsonSchema[] } => isRecord(schema) && Object.keys(schema).length === 1 && Array.isArray(schema.anyOf);

/**
 * What a `not` excludes from the string token, where the string compiler applies it itself:
 * strings (`{enum: [strings]}`, `{const: string}`), texts matching a pattern (`{pattern: P}`,
 * a pattern the automaton can run), and `anyOf` of those. Values of other types satisfy a
 * `not` of strings but fail a `not` with a pattern (a pattern holds for them), so a `not` with
 * patterns leaves strings only (`excludesOtherTypes`).
 */
export interface StringExclusion {
  readonly values: readonly string[];
  readonly patterns: readonly string[];
}

export function stringExclusion(not: unknown): StringExclusion | undefined {
  const values = enumOnly(not);
  if (values !== undefined) return values.every((v): v is string => typeof v === "string") ? { values, patterns: [] } : undefined;
  if (!isRecord(not)) return undefined;
  const keys = Object.keys(not).filter((k) => !isAnnotationKeyword(k));
  if (keys.length !== 1) return undefined;
  if (keys[0] === "pattern") return runnablePattern(not.pattern) ? { values: [], patterns: [not.pattern] } : undefined;
  if (keys[0] !== "anyOf" || !Array.isArray(not.anyOf) || not.anyOf.length === 0) return undefined;
  const parts = not.anyOf.map(stringExclusion);
  if (parts.some((x) => x === undefined)) return undefined;
  return { values: parts.flatMap((x) => x!.values), patterns: parts.flatMap((x) => x!.patterns) };
}

/** Whether values of types other than string fail the `not` of this exclusion. */
export const excludesOtherTypes = (exclusion: StringExclusion): boolean => exclusion.patterns.length > 0;

/** A string expression without `exclusion`'s strings, where the string token can say so (not a format's grammar). */
export function excludeStrings(expr: Expr, exclusion: StringExclusion): Expr | undefined {
  if (expr.kind !== "jsonString") return undefined;
  const { minLength, maxLength, pattern, exclude, excludePatterns, substringOf } = expr;
  return jsonString({ minLength, maxLength, pattern, exclude: [...(exclude ?? []), ...exclusion.values], excludePatterns: [...(excludePatterns ?? []), ...exclusion.patterns], substringOf });
}

/** At least one of `parts` (false parts drop out, a true part makes it true). */
function anyOfOf(parts: readonly JsonSchema[]): JsonSchema {
  if (parts.includes(true)) return true;
  const rest = parts.filter((p) => p !== false);
  return rest.length === 0 ? false : rest.length === 1 ? rest[0]! : { anyOf: rest };
}

const asSchema = (v: unknown): JsonSchema | undefined => (typeof v === "boolean" || isRecord(v) ? v : undefined);

/** Overlapping branch pairs a negated oneOf may spell (each an alternative that compiles two branches). */
const MAX_ONE_OF_PAIRS = 8;

class Negator {
  private prover: DisjointnessProver | undefined;
  private evaluator: Evaluator | undefined;

  constructor(private readonly ctx: CompileContext, private readonly pointer: string, private readonly consumed: Consumed[]) {}

  /** `scope`: only its values matter (the caller intersects the result with its type). */
  negate(schema: unknown, depth: number, scope?: Scope): JsonSchema | undefined {
    if (typeof schema === "boolean") return !schema;
    if (!isRecord(schema) || depth > LIMITS.maxInlineDepth) return undefined;
    // The values in scope are known to satisfy it (a part shared with the branch it is negated beside).
    if (scope?.beside?.holds.some((s) => this.same(s, schema)) === true) return false;
    const written = new SchemaNode(schema, this.pointer);
    if (this.ctx.legacyRefs && written.peek("$ref") !== undefined) return this.negateRef(written, depth, scope);
    const node = new SchemaNode(normalizeNode(schema), this.pointer);
    const parts: JsonSchema[] = [];
    for (const k of node.keywords()) {
      // enum already holds only values of the allowed types; `nullable: true` is folded into type.
      if (isAnnotationKeyword(k) || (k === "type" && node.has("enum")) || (k === "nullable" && node.has("type"))) continue;
      const part = k === "$ref" ? this.negateRef(written, depth, scope) : this.negateKeyword(node, k, schema, depth, scope);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return anyOfOf(parts);
  }

  private negateRef(written: SchemaNode, depth: number, scope: Scope | undefined): JsonSchema | undefined {
    const target = this.ctx.resolver.refTarget(written);
    return target === undefined ? undefined : this.negate(target.node, depth + 1, scope);
  }

  private negateAll(schemas: readonly unknown[] | undefined, depth: number, scope: Scope | undefined): JsonSchema[] | undefined {
    if (schemas === undefined) return undefined;
    const out: JsonSchema[] = [];
    for (const s of schemas) {
      const n = this.negate(s, depth + 1, scope);
      if (n === undefined) return undefined;
      out.push(n);
    }
    return out;
  }

  private negateKeyword(node: SchemaNode, k: string, raw: object, depth: number, scope: Scope | undefined): JsonSchema | undefined {
    const within = scope?.type;
    // A keyword about another type holds for every value of the scope's type.
    if (within !== undefined && isKeyword(k) && KEYWORDS[k].instance !== undefined && KEYWORDS[k].instance !== within) return false;
    switch (k) {
      case "type":
        return mapDefined(node.peek("type"), (types) => (within === undefined ? complementTypes(types) : complementWithin(types, within, scope?.beside?.integral === true)));
      case "enum": {
        const types = node.peek("type");
        const admitted = (x: unknown): boolean => (types === undefined || typesOf(x).some((t) => types.has(t as JsonType))) && (within === undefined || typesOf(x).includes(within));
        return mapDefined(node.peek("enum"), (values) => complementValues(values.filter(admitted)));
      }
      case "not":
        this.consumed.push({ node: raw, keyword: "not" });
        return asSchema(node.get("not"));
      case "anyOf":
        return mapDefined(this.negateAll(node.peek("anyOf"), depth, scope), (parts) => ({ allOf: parts }));
      case "oneOf": {
        const n = this.negateOneOf(node.peek("oneOf"), depth, scope);
        if (n !== undefined) this.consumed.push({ node: raw, keyword: "oneOf" });
        return n;
      }
      case "allOf":
        return mapDefined(this.negateAll(node.peek("allOf"), depth, scope), anyOfOf);
      case "required": {
        // A required name with a declared schema is negated with it, under properties.
        const declared = node.peek("properties");
        return mapDefined(node.peek("required"), (names) => anyOfOf(names.filter((r) => declared?.has(r) !== true).map((r) => ({ type: "object", properties: { [r]: false } }))));
      }
      case "properties":
        return mapDefined(node.peek("properties"), (properties) => this.negateProperties(properties, new Set(node.peek("required")), depth, scope?.beside));
      case "additionalProperties":
      case "patternProperties":
        // Schemas that accept everything never fail, whatever the names.
        if (governedSchemas(node, k).every(acceptsEverything)) return false;
        return mapDefined(scope?.beside, (beside) => this.negateOtherNames(node, k, beside, depth)) ?? this.someEntryFails(entryKeyword(node, k), depth);
      case "items": {
        // With prefixItems, `items` covers only the rest; `items: true` says nothing.
        const v = node.get("items");
        if (node.has("prefixItems")) return undefined;
        if (v === false || v === true) return v === false ? { type: "array", minItems: 1 } : false;
        const known = scope?.beside === undefined ? undefined : this.itemsFail(v, scope.beside);
        return known ?? mapDefined(this.negate(v, depth + 1), (n) => (n === false ? false : { type: "array", contains: n }));
      }
      case "contains": {
        // Hit counts make it a count of items, which has no negation here.
        if (node.has("minContains") || node.has("maxContains")) return undefined;
        const n = this.negate(node.get("contains"), depth + 1);
        if (n !== undefined) this.consumed.push({ node: raw, keyword: "contains" });
        return mapDefined(n, (items) => ({ type: "array", items }));
      }
      case "propertyNames":
        return this.somePropertyName(node.get("propertyNames"), depth);
      case "dependencies":
      case "dependentRequired":
      case "dependentSchemas": {
        // Only objects fail them; before 2019-09 only `dependencies` is a keyword (as objects.ts reads them).
        if ((within !== undefined && within !== "object") || (k !== "dependencies" && this.ctx.legacyRefs)) return false;
        const n = this.negateDependencies(k, node.raw[k], depth, scope);
        if (n !== undefined) this.consumed.push({ node: raw, keyword: k });
        return n;
      }
      case "uniqueItems":
        return node.get("uniqueItems") === false ? false : undefined;
      case "format": {
        // A name neither JSON Schema nor the validator defines is an annotation: it never fails.
        const format = node.get("format");
        if (isAnnotationFormat(format)) return false;
        // A format whose grammar is exactly the validator's: the strings its pattern does not match.
        const source = format !== undefined && EXACT_FORMATS.has(format) ? formatPattern(format) : null;
        return source === null ? undefined : { type: "string", not: { pattern: source } };
      }
      case "pattern": {
        // Excluded from the string token rather than a complement regex: it merges with another pattern.
        const p = node.get("pattern");
        return runnablePattern(p) ? { type: "string", not: { pattern: p } } : undefined;
      }
      default:
        return isKeyword(k) ? flipBound(k, node) : undefined;
    }
  }

  /**
   * Not exactly one branch: none (every branch negated) or two at once (both branches, for each
   * pair not proven disjoint); past MAX_ONE_OF_PAIRS such pairs, no form.
   */
  private negateOneOf(branches: readonly unknown[] | undefined, depth: number, scope: Scope | undefined): JsonSchema | undefined {
    const none = this.negateAll(branches, depth, scope);
    if (branches === undefined || none === undefined) return undefined;
    this.prover ??= new DisjointnessProver(this.ctx, this.pointer);
    const pairs: JsonSchema[] = [];
    for (let i = 0; i < branches.length; i++) {
      for (let j = i + 1; j < branches.length; j++) {
        if (!this.prover.disjoint([branches[i]], [branches[j]])) pairs.push({ allOf: [branches[i] as JsonSchema, branches[j] as JsonSchema] });
      }
    }
    return pairs.length > MAX_ONE_OF_PAIRS ? undefined : anyOfOf([none.includes(false) ? false : { allOf: none }, ...pairs]);
  }

  /**
   * An object with a name whose dependency fails: a name of its list missing, or (a dependent
   * schema) the schema's negation.
   */
  private negateDependencies(k: DependencyKeyword, map: unknown, depth: number, scope: Scope | undefined): JsonSchema | undefined {
    if (!isRecord(map)) return undefined;
    const parts: JsonSchema[] = [];
    for (const [name, dep] of Object.entries(map)) {
      const present = { type: "object", required: [name] };
      if (k !== "dependentSchemas" && isNameList(dep)) {
        parts.push(...dep.filter((t) => t !== name).map((t) => ({ ...present, properties: { [t]: false } })));
        continue;
      }
      // The same object: what the scope knows of it holds.
      const n = k === "dependentRequired" ? undefined : this.negate(dep, depth + 1, scope);
      if (n === undefined) return undefined;
      parts.push(n === true ? present : n === false ? false : { ...present, allOf: [n] });
    }
    return anyOfOf(parts);
  }

  /**
   * An object with a name `names` rejects: any name (a property at all) when it rejects every
   * name, one of the names when those are finitely many (`not: {enum: names}`); else no form.
   */
  private somePropertyName(names: unknown, depth: number): JsonSchema | undefined {
    if (typeof names === "boolean") return names ? false : { type: "object", minProperties: 1 };
    const negation = this.negate(names, depth + 1, { type: "string" });
    if (negation === false) return false;
    const rejected = mapDefined(negation, enumOnly)?.filter((v): v is string => typeof v === "string");
    if (rejected === undefined) return this.someEntryFails({ propertyNames: names }, depth);
    return anyOfOf(rejected.map((name) => ({ type: "object", required: [name] })));
  }

  /**
   * An object with an entry that fails `universal` (entry-forms.ts), which the object compiler
   * writes (some-entry.ts), where each failing value has a negation.
   */
  private someEntryFails(universal: Record<string, unknown>, depth: number): JsonSchema | undefined {
    const entries = failingEntries(universal);
    if (entries === undefined || entries.some((e) => new Negator(this.ctx, this.pointer, []).negate(e.fails, depth + 1) === undefined)) return undefined;
    return entries.length === 0 ? false : { type: "object", not: universal };
  }

  /**
   * Some declared property is present with a value its schema rejects, or (a name in `required`)
   * absent: "absent or failing" is one part, `properties: {name: not S}`, so that a branch keyed
   * by a required property negates to one part, which conjoins without multiplying out.
   */
  private negateProperties(properties: ReadonlyMap<string, unknown>, required: ReadonlySet<string>, depth: number, beside: Beside | undefined): JsonSchema | undefined {
    const parts: JsonSchema[] = [];
    for (const [name, s] of properties) {
      const fails = this.valueFails(name, s, depth, beside);
      if (fails === undefined) return undefined;
      if (required.has(name)) parts.push(fails === true ? { type: "object" } : { type: "object", properties: { [name]: fails } });
      else if (fails !== false) parts.push(fails === true ? { type: "object", required: [name] } : { type: "object", required: [name], properties: { [name]: fails } });
    }
    return anyOfOf(parts);
  }

  /** An object whose property `name` is present and fails `schema`. */
  private propertyFails(name: string, schema: unknown, depth: number, beside: Beside | undefined): JsonSchema | undefined {
    return this.negateProperties(new Map([[name, schema]]), new Set(), depth, beside);
  }

  /** The values of property `name` that fail `schema` (true: any, false: none), given what `beside` knows of them. */
  private valueFails(name: string, schema: unknown, depth: number, beside: Beside | undefined): JsonSchema | undefined {
    if (beside !== undefined && (beside.absent(name) || beside.schemasOf(name).some((s) => this.same(s, schema)))) return false;
    // No value it may have satisfies the schema: any value fails.
    if (beside?.property(name).disjointFrom(schema) === true) return true;
    // Finitely many values it may have: those the schema rejects, where the evaluator decides each.
    const failing = mapDefined(beside?.property(name).values, (values) => this.failing(schema, values));
    if (failing !== undefined) return failing.length === 0 ? false : { enum: failing };
    // Relative to what is known of the value first: the smaller form (no `contains` where the items are known to fail).
    return (beside === undefined ? undefined : this.negateBeside(schema, depth + 1, beside.property(name))) ?? this.negate(schema, depth + 1);
  }

  /**
   * Some item fails `items` (an array of `beside`'s values): never when the items are known to
   * satisfy the same subschema; any item, so a non-empty array, when no item can satisfy it.
   */
  private itemsFail(items: unknown, beside: Beside): JsonSchema | undefined {
    if (beside.itemSchemas.some((s) => this.same(s, items))) return false;
    return beside.itemsDisjointFrom(items) ? { type: "array", minItems: 1 } : undefined;
  }

  /** The values known by `beside` that `schema` rejects, type by type (see negateWithin). */
  private negateBeside(schema: unknown, depth: number, beside: Beside): JsonSchema | undefined {
    const parts: JsonSchema[] = [];
    for (const type of beside.types) {
      const n = this.negate(schema, depth, { type, beside });
      if (n === undefined) return undefined;
      parts.push(ofType(type, n));
    }
    return anyOfOf(parts);
  }

  /**
   * additionalProperties / patternProperties failed, for objects whose names are among
   * `beside.names`: one of those names it governs is present with a value its schema rejects.
   */
  private negateOtherNames(node: SchemaNode, k: "additionalProperties" | "patternProperties", beside: Beside, depth: number): JsonSchema | undefined {
    if (beside.names === undefined) return undefined;
    const declared = node.peek("properties") ?? new Map<string, unknown>();
    const patterns = [...(node.peek("patternProperties") ?? new Map<string, unknown>())];
    const parts: JsonSchema[] = [];
    for (const name of beside.names) {
      const matches = patterns.map(([p]) => testRegex(p, name));
      if (matches.includes(undefined)) return undefined;
      const governing = k === "patternProperties" ? patterns.filter((_, i) => matches[i]).map(([, s]) => s) : declared.has(name) || matches.includes(true) ? [] : [node.get("additionalProperties")];
      for (const s of governing) {
        const part = this.propertyFails(name, s, depth, beside);
        if (part === undefined) return undefined;
        parts.push(part);
      }
    }
    return anyOfOf(parts);
  }

  /** The values among `values` that `schema` rejects; undefined when a verdict is undecided. */
  private failing(schema: unknown, values: readonly unknown[]): unknown[] | undefined {
    this.evaluator ??= new Evaluator(this.ctx, this.pointer);
    const judged = this.evaluator.judged.length;
    const out: unknown[] = [];
    for (const v of values) {
      const verdict = this.evaluator.satisfies(schema, v);
      if (verdict === undefined) return undefined;
      if (!verdict) out.push(v);
    }
    // A `not` or `oneOf` decided on these values is exact wherever the rewriting is used.
    for (const [node, keyword] of this.evaluator.judged.slice(judged)) this.consumed.push({ node, keyword });
    return out;
  }

  /** Whether two subschemas have the same instances as written (a `$ref` by its target). */
  private same(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (!isRecord(a) || !isRecord(b)) return false;
    const refs = [a, b].map((x) => new SchemaNode(x, this.pointer));
    if (refs.some((n) => n.peek("$ref") !== undefined)) {
      if (Object.keys(a).length !== 1 || Object.keys(b).length !== 1) return false;
      const [ta, tb] = refs.map((n) => this.ctx.resolver.refTarget(n));
      return ta !== undefined && ta.node === tb?.node;
    }
    // Nested references may resolve against different bases: only plain equal schemas count.
    return !JSON.stringify(a).includes('"$ref"') && jsonEqual(a, b);
  }
}

/**
 * additionalProperties or patternProperties of `node` as a keyword on its own: the names that
 * additionalProperties leaves out (its node's properties and patterns) go with it, as names only.
 */
function entryKeyword(node: SchemaNode, k: "additionalProperties" | "patternProperties"): Record<string, unknown> {
  if (k === "patternProperties") return { patternProperties: node.raw.patternProperties };
  const naming = (map: ReadonlyMap<string, unknown> | undefined): Record<string, true> => Object.fromEntries([...(map ?? new Map<string, unknown>()).keys()].map((n) => [n, true]));
  return { properties: naming(node.peek("properties")), patternProperties: naming(node.peek("patternProperties")), additionalProperties: node.raw.additionalProperties };
}

/** The schemas additionalProperties or patternProperties apply to names. */
function governedSchemas(node: SchemaNode, k: "additionalProperties" | "patternProperties"): readonly unknown[] {
  return k === "additionalProperties" ? [node.get("additionalProperties")] : [...(node.peek("patternProperties") ?? new Map<string, unknown>()).values()];
}

/** Formats whose grammar accepts exactly the strings the validator (ajv-formats) accepts; the
 *  others refuse some valid strings on the safe side (README, Formats), so their complement would not be exact. */
const EXACT_FORMATS: ReadonlySet<string> = new Set(["ipv4", "ipv6"]);

const isAnnotationFormat = (format: unknown): boolean => typeof format === "string" && !SPEC_FORMATS.has(format) && !(formatNames as readonly string[]).includes(format);


function complementTypes(types: ReadonlySet<JsonType>): JsonSchema {
  const rest = TYPE_NAMES.filter((x) => !types.has(x) && !(x === "number" && types.has("integer")));
  const others: JsonSchema = rest.length === 0 ? false : { type: rest };
  // Integers but not all numbers: the non-integers are left (non-integer.ts).
  return types.has("integer") && !types.has("number") ? anyOfOf([others, { type: "number", not: { type: "integer" } }]) : others;
}

/**
 * Whether values of type `within` fail `type: types` (`integral`: the numbers are integers;
 * "integer" among numbers that may have fractions: the non-integers, `not: {type: "integer"}`).
 */
function complementWithin(types: ReadonlySet<JsonType>, within: TypeName, integral: boolean): JsonSchema {
  if (types.has(within)) return false;
  if (within !== "number" || !types.has("integer")) return true;
  // The non-integers, which the number compiler spells (non-integer.ts).
  return integral ? false : { not: { type: "integer" } };
}

/** Every value but `values`: exact when they are nulls, booleans, strings and numbers only. */
function complementValues(values: readonly unknown[]): JsonSchema | undefined {
  const kinds = new Set(values.map((v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)));
  if (kinds.has("array") || kinds.has("object")) return undefined;
  const booleans = values.filter((v): v is boolean => typeof v === "boolean");
  const strings = values.filter((v): v is string => typeof v === "string");
  const numbers = values.filter((v): v is number => typeof v === "number");
  const otherTypes = TYPE_NAMES.filter((t) => !kinds.has(t));
  const parts: JsonSchema[] = [{ type: otherTypes }];
  if (booleans.length > 0 && !(booleans.includes(true) && booleans.includes(false))) parts.push({ enum: [!booleans[0]] });
  if (strings.length > 0) parts.push({ type: "string", not: { enum: strings } });
  if (numbers.length > 0) parts.push(...numbersBetween(numbers));
  return anyOfOf(parts);
}

/** The numbers other than `values`: the open intervals below, between and above them. */
function numbersBetween(values: readonly number[]): JsonSchema[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const gaps: JsonSchema[] = [{ type: "number", exclusiveMaximum: sorted[0]! }];
  sorted.forEach((v, i) => gaps.push(i + 1 < sorted.length ? { type: "number", exclusiveMinimum: v, exclusiveMaximum: sorted[i + 1]! } : { type: "number", exclusiveMinimum: v }));
  return gaps;
}

/**
 * A bound's complement, by the keyword table's `opposite`: not (minX n) = of that type with
 * maxX n-1 (nothing when n = 0), not (maxX n) = minX n+1; not (minimum n) = exclusiveMaximum n, ...
 */
function flipBound(k: Keyword, node: SchemaNode): JsonSchema | undefined {
  const spec: KeywordSpec = KEYWORDS[k];
  if (spec.opposite === undefined || spec.instance === undefined) return undefined;
  const n = node.peek(k);
  if (typeof n !== "number") return undefined;
  if (spec.value !== "count") return { type: spec.instance, [spec.opposite]: n };
  const flipped = spec.bound === "lower" ? n - 1 : n + 1;
  if (flipped < 0) return false;
  return { type: spec.instance, [spec.opposite]: flipped };
}
