/**
 * `dependentRequired`, `dependentSchemas` and draft 4-7 `dependencies` read as presence rules
 * (presence.ts): "when A is written, these names must be written", "... must not be written",
 * "A is never written". A name list is such a rule as it stands; a dependent schema is one when
 * it only asks for names (`required`), forbids names (`properties: {b: false}`,
 * `properties: {b: {not: {}}}`, `not: {required: [b]}`), says nothing of objects (`true`, `{}`,
 * `type: "object"`), or is `false`. Any other dependent schema S of a name k becomes alternatives (dependentSchemasApart):
 * "k written and S holds, or k not written", exact as it stands; past the branch budget it is
 * left to the check after decoding.
 */

import { isAnnotationKeyword, isRecord, keywordsWhere, SchemaNode, type JsonSchema, type JsonSchemaObject } from "../schema/index.js";
import { acceptsEverything, rejectsEverything } from "./trivial-schemas.js";

const DEPENDENCY_KEYWORDS = keywordsWhere((s) => s.family === "dependencies");
export type DependencyKeyword = (typeof DEPENDENCY_KEYWORDS)[number];

export interface Dependencies {
  readonly requires: ReadonlyMap<string, readonly string[]>;
  readonly forbids: ReadonlyMap<string, readonly string[]>;
  readonly absent: ReadonlySet<string>;
  /** Every name the rules mention, each entry's targets before its key (the order an instance
   *  naturally writes "b because a": the needed name first), in the order first mentioned. */
  readonly names: readonly string[];
  /** The keywords present, each with whether all its entries became rules. */
  readonly keywords: ReadonlyMap<DependencyKeyword, boolean>;
  /** Schemas whose `not` became a rule (a dependent schema's not-of-one-name, a property's
   *  `{not: {}}`): enforced with the rules. */
  readonly negated: readonly object[];
}

interface Effect {
  readonly requires: readonly string[];
  readonly forbids: readonly string[];
  readonly absent: boolean;
  readonly negated: readonly object[];
}

const NOTHING: Effect = { requires: [], forbids: [], absent: false, negated: [] };
export const isNameList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

/** What a dependent schema asks of the object, when it only asks about names; undefined otherwise. */
function effectOf(schema: unknown): Effect | undefined {
  if (schema === true) return NOTHING;
  if (schema === false) return { ...NOTHING, absent: true };
  if (!isRecord(schema)) return undefined;
  const node = new SchemaNode(schema, "");
  const requires: string[] = [];
  const forbids: string[] = [];
  const negated: object[] = [];
  for (const k of node.keywords()) {
    if (isAnnotationKeyword(k)) continue;
    const v = schema[k];
    if (k === "type") {
      const types = node.peek("type");
      if (types === undefined) return undefined;
      if (!types.has("object")) return { ...NOTHING, absent: true };
    } else if (k === "required" && isNameList(v)) requires.push(...v);
    else if (k === "properties" && isRecord(v) && Object.values(v).every((s) => acceptsEverything(s) || rejectsEverything(s))) {
      const forbidden = Object.keys(v).filter((name) => rejectsEverything(v[name]));
      forbids.push(...forbidden);
      negated.push(...forbidden.map((name) => v[name]).filter(isRecord));
    } else if (k === "not" && isRecord(v) && Object.keys(v).length === 1 && isNameList(v.required) && v.required.length === 1) {
      forbids.push(v.required[0]!);
      negated.push(schema);
    } else return undefined;
  }
  return { requires, forbids, absent: false, negated };
}

/** The dependency keywords of an object schema as presence rules; `draft2019` false (draft 7
 *  and earlier) leaves out dependentRequired/dependentSchemas, which those drafts do not have. */
export function readDependencies(node: SchemaNode, draft2019: boolean): Dependencies {
  const requires = new Map<string, string[]>();
  const forbids = new Map<string, string[]>();
  const absent = new Set<string>();
  const names = new Set<string>();
  const keywords = new Map<DependencyKeyword, boolean>();
  const negated: object[] = [];
  const add = (map: Map<string, string[]>, key: string, targets: readonly string[]): void => {
    if (targets.length === 0) return;
    map.set(key, [...(map.get(key) ?? []), ...targets]);
    for (const t of targets) names.add(t);
    names.add(key);
  };
  for (const keyword of DEPENDENCY_KEYWORDS) {
    const value = node.raw[keyword];
    if (value === undefined || (!draft2019 && keyword !== "dependencies")) continue;
    let exact = isRecord(value);
    if (isRecord(value)) {
      for (const [key, dep] of Object.entries(value)) {
        const effect = keyword !== "dependentSchemas" && isNameList(dep) ? { ...NOTHING, requires: dep } : keyword !== "dependentRequired" ? effectOf(dep) : undefined;
        if (effect === undefined) {
          exact = false;
          continue;
        }
        add(requires, key, effect.requires);
        add(forbids, key, effect.forbids);
        negated.push(...effect.negated);
        if (effect.absent) {
          absent.add(key);
          names.add(key);
        }
      }
    }
    keywords.set(keyword, exact);
  }
  return { requires, forbids, absent, names: [...names], keywords, negated };
}

/** The dependent schemas of `raw` that are not presence rules, each as "present and satisfying it, or absent". */
export interface SchemaDependencies {
  /** `raw` without those entries (a keyword left empty goes). */
  readonly rest: JsonSchemaObject;
  /** One `anyOf` of the two alternatives per entry taken out. */
  readonly alternatives: readonly JsonSchema[];
  /** The keywords entries were taken from. */
  readonly keywords: readonly DependencyKeyword[];
}

/**
 * Takes the dependent schemas that readDependencies cannot read as presence rules out of `raw`
 * (`draft2019`: dependentSchemas is a keyword), or undefined when there are none. For a name k
 * and schema S: `anyOf: [{properties: {k: true}, required: [k], allOf: [S]}, {properties: {k: false}}]`.
 */
export function dependentSchemasApart(raw: JsonSchemaObject, draft2019: boolean): SchemaDependencies | undefined {
  const rest: { [k: string]: unknown } = { ...raw };
  const alternatives: JsonSchema[] = [];
  const keywords: DependencyKeyword[] = [];
  for (const keyword of ["dependencies", "dependentSchemas"] as const) {
    const value = raw[keyword];
    if (!isRecord(value) || (keyword === "dependentSchemas" && !draft2019)) continue;
    const kept: { [k: string]: unknown } = {};
    for (const [name, dep] of Object.entries(value)) {
      if ((keyword === "dependencies" && isNameList(dep)) || effectOf(dep) !== undefined) kept[name] = dep;
      // The name is declared first (`properties: {k: true}`), so the grammar writes it before the
      // properties its schema brings, as the dependency reads (and as presence rules order names).
      else alternatives.push({ anyOf: [{ properties: { [name]: true }, required: [name], allOf: [dep as JsonSchema] }, { properties: { [name]: false } }] });
    }
    if (Object.keys(kept).length === Object.keys(value).length) continue;
    keywords.push(keyword);
    if (Object.keys(kept).length === 0) delete rest[keyword];
    else rest[keyword] = kept;
  }
  return alternatives.length === 0 ? undefined : { rest, alternatives, keywords };
}
