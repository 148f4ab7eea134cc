/**
 * `oneOf` as alternatives the grammar can take exactly (as anyOf). An instance satisfies
 * oneOf [B1..Bn] when it satisfies exactly one branch: some Bi and no other Bj. Where Bi and Bj
 * are proven disjoint (exclusive.ts) "not Bj" follows from Bi; for the other pairs the branch is
 * rewritten as Bi and not Bj, with `not Bj` in its exact positive form (negate.ts). So
 *   oneOf [B1..Bn] = anyOf [B1 and not (the Bj that may overlap B1), ...],
 * exact, and pairwise disjoint. "Bi and not Bj" only needs the negation for the values Bi (with
 * the siblings) admits: it is built type by type (negateWithin), where the keywords about other
 * types drop out and a type on which Bi and Bj are proven disjoint needs no negation at all; its
 * parts proven disjoint from Bi are dropped, and a part every one of Bi's negations has is
 * factored out rather than multiplied (excludingAll). A branch with finitely many values (an
 * enum or const, its own or the siblings') becomes the list of its values that no other branch
 * accepts, where the evaluator decides them all.
 * Without an exact negation of every overlapping branch, or when the rewriting would multiply
 * past MAX_ALTERNATIVES, the branches stay as written and exactly-one is checked after decoding.
 */

import { isRecord, jsonEqual, type JsonSchema } from "../schema/index.js";
import { LIMITS, type CompileContext } from "./context.js";
import { Evaluator } from "./evaluate.js";
import { DisjointnessProver, overlappingPairs } from "./exclusive.js";
import { negateWithin, recordConsumed, TYPE_NAMES, type Consumed, type TypeName } from "./negate.js";

/** `{type: T}` for each type, one node each (the prover caches what it computes by node). */
const TYPED = Object.fromEntries(TYPE_NAMES.map((t) => [t, { type: t }])) as Record<TypeName, { type: TypeName }>;

/** Alternatives a rewritten oneOf may multiply out to (each compiles the whole branch again). */
const MAX_ALTERNATIVES = Math.min(64, LIMITS.maxBranches);

/**
 * Overlapping pairs a rewriting may negate. Each costs a negation and a conjunction that every
 * branch it touches compiles again, so their count is the rewriting's work: past this many
 * (a 26-branch oneOf has 325) the negations alone take a second and the rewritten branches then
 * compile past maxSchemaProperties, so exactly-one is checked after decoding without trying.
 */
export const MAX_OVERLAPPING_PAIRS = 32;

/** The anyOf parts of a schema (none for false; itself when it is not a bare anyOf). */
function partsOf(schema: JsonSchema): readonly JsonSchema[] {
  if (schema === false) return [];
  if (isRecord(schema) && Object.keys(schema).length === 1 && Array.isArray(schema.anyOf)) return schema.anyOf as JsonSchema[];
  return [schema];
}

/**
 * The branches of the oneOf `node` (whose siblings are `context`), rewritten to be exact as
 * anyOf where that is possible, and the compile report's verdict on it. A rewriting's verdicts
 * come with it (`rewriting.recordExact`), for the caller to record as it compiles the branches;
 * when they compile past a size limit the caller takes the written ones instead
 * (`rewriting.recordAsWritten`: exactly-one checked after decoding), so a schema that compiled
 * before the rewriting still does.
 */
export function exactOneOfBranches(
  ctx: CompileContext,
  node: object,
  context: unknown,
  branches: readonly unknown[],
  pointer: string,
): { branches: readonly unknown[]; rewriting?: { recordExact: () => void; recordAsWritten: () => void } } {
  const prover = new DisjointnessProver(ctx, pointer);
  const pairs = overlappingPairs(prover, context, branches);
  if (pairs.length === 0) {
    ctx.report.verdict(node, "oneOf", true, "branches proven pairwise disjoint: exact as anyOf", pointer);
    return { branches };
  }
  const rewritten = pairs.length > MAX_OVERLAPPING_PAIRS ? undefined : rewrite(ctx, prover, context, branches, pairs, pointer);
  if (rewritten === undefined) {
    ctx.report.verdict(node, "oneOf", false, "exactly-one-branch is checked after decoding", pointer);
    return { branches };
  }
  const recordExact = (): void => {
    ctx.report.verdict(node, "oneOf", true, "each branch excludes the branches it may overlap (their exact negation): exact as anyOf", pointer);
    recordConsumed(ctx, rewritten.consumed, pointer);
    for (const [n, k] of rewritten.judged) ctx.report.verdict(n, k, true, "decided for each value of a branch with finitely many", pointer);
  };
  const recordAsWritten = (): void => ctx.report.verdict(node, "oneOf", false, "exactly-one-branch is checked after decoding (its exclusive rewriting is past a size limit)", pointer);
  return { branches: rewritten.branches, rewriting: { recordExact, recordAsWritten } };
}

function rewrite(
  ctx: CompileContext,
  prover: DisjointnessProver,
  context: unknown,
  branches: readonly unknown[],
  pairs: readonly (readonly [number, number])[],
  pointer: string,
): { branches: unknown[]; consumed: Consumed[]; judged: readonly [object, "not" | "oneOf"][] } | undefined {
  const evaluator = new Evaluator(ctx, pointer);
  const consumed: Consumed[] = [];
  const out: unknown[] = [];
  const interned = branches.map(() => new Map<string, JsonSchema>());
  let alternatives = 0;
  for (const [i, branch] of branches.entries()) {
    const others = pairs.flatMap(([a, b]) => (a === i ? [b] : b === i ? [a] : []));
    const values = others.length === 0 ? undefined : valuesOnlyHere(prover, evaluator, context, branch, others.map((j) => branches[j]));
    if (values !== undefined) {
      out.push(values.length === 0 ? false : { enum: values });
      alternatives += values.length === 0 ? 0 : 1;
      continue;
    }
    const negations: JsonSchema[][] = [];
    for (const j of others) {
      const negation = negationBeside(ctx, prover, [context, branch], branches[j], pointer);
      if (negation === undefined) return undefined;
      consumed.push(...negation.consumed);
      negations.push(negation.parts.map((part) => intern(interned[j]!, part)));
      // No part is possible: the branch never holds without Bj.
      if (negation.parts.length === 0) break;
    }
    const excluding = excludingAll(branch, negations);
    alternatives += excluding.count;
    if (alternatives > MAX_ALTERNATIVES) return undefined;
    out.push(excluding.schema);
  }
  return { branches: out, consumed, judged: evaluator.judged };
}

/**
 * `part` as the first equal part made before from the same branch: the branches it excludes
 * then share its nodes, which the compiler compiles once (CompileContext.reuse) however many
 * branches conjoin it (a oneOf keyed by required properties negates each other branch alike).
 */
function intern(seen: Map<string, JsonSchema>, part: JsonSchema): JsonSchema {
  const key = JSON.stringify(part);
  const known = seen.get(key);
  if (known !== undefined) return known;
  seen.set(key, part);
  return part;
}

/**
 * `branch` and one part of each of `negations` (each the alternatives of a "not Bj"), and the
 * alternatives that makes. Parts every negation has are factored out, (C or R1) and (C or R2) =
 * C or (R1 and R2), so that a part the negations share (the branch's own discriminator value,
 * which every other branch rejects) does not multiply.
 */
function excludingAll(branch: unknown, negations: readonly (readonly JsonSchema[])[]): { schema: unknown; count: number } {
  if (negations.length === 0) return { schema: branch, count: 1 };
  if (negations.some((parts) => parts.length === 0)) return { schema: false, count: 0 };
  const common = negations.length === 1 ? [] : negations[0]!.filter((p) => negations.every((parts) => parts.some((q) => jsonEqual(p, q))));
  const rest = negations.map((parts) => parts.filter((p) => !common.some((c) => jsonEqual(p, c))));
  const anyOf = (parts: readonly JsonSchema[]): JsonSchema => (parts.length === 1 ? parts[0]! : { anyOf: [...parts] });
  // A negation that is all common parts leaves no other alternative.
  const others = rest.some((parts) => parts.length === 0) ? undefined : rest.map(anyOf);
  const count = common.length + (others === undefined ? 0 : rest.reduce((n, parts) => n * parts.length, 1));
  if (common.length === 0) return { schema: { allOf: [branch, ...others!] }, count };
  return { schema: { allOf: [branch, anyOf(others === undefined ? common : [...common, { allOf: others }])] }, count };
}

/**
 * A branch with finitely many possible values (an enum, a const, also from the siblings), as the
 * list of those that satisfy it and the siblings and none of `others`; undefined when a verdict
 * is undecided (the evaluator, evaluate.ts). Exact where the negation of `others` has no form
 * (a number, an array or an object among the values).
 */
function valuesOnlyHere(prover: DisjointnessProver, evaluator: Evaluator, context: unknown, branch: unknown, others: readonly unknown[]): unknown[] | undefined {
  const candidates = prover.values([context, branch]);
  if (candidates === undefined) return undefined;
  const kept: unknown[] = [];
  for (const v of candidates) {
    const here = [evaluator.satisfies(context, v), evaluator.satisfies(branch, v)];
    if (here.includes(false)) continue;
    if (here.includes(undefined)) return undefined;
    const elsewhere = others.map((o) => evaluator.satisfies(o, v));
    if (elsewhere.includes(undefined)) return undefined;
    if (!elsewhere.includes(true) && !kept.some((w) => jsonEqual(v, w))) kept.push(v);
  }
  return kept;
}

/**
 * "not `other`" for the values of `conjunction` (schemas all of which hold), as alternatives:
 * type by type, nothing when `conjunction` has no value of the type, the whole type when its
 * values of the type never satisfy `other`, else the exact negation within the type, given what
 * is known of `conjunction`'s objects (negate.ts), less the parts proven disjoint from it. Undefined when a needed negation has no form.
 */
function negationBeside(ctx: CompileContext, prover: DisjointnessProver, conjunction: readonly unknown[], other: unknown, pointer: string): { parts: JsonSchema[]; consumed: Consumed[] } | undefined {
  const wholeTypes: TypeName[] = [];
  const parts: JsonSchema[] = [];
  const consumed: Consumed[] = [];
  for (const type of TYPE_NAMES) {
    const typed = TYPED[type];
    if (prover.disjoint(conjunction, [typed])) continue;
    if (prover.disjoint([...conjunction, typed], [other])) {
      wholeTypes.push(type);
      continue;
    }
    const negation = negateWithin(ctx, other, pointer, type, prover.beside([...conjunction, typed]));
    if (negation === undefined) return undefined;
    consumed.push(...negation.consumed);
    parts.push(...partsOf(negation.schema).filter((p) => !prover.disjoint(conjunction, [p])));
  }
  if (wholeTypes.length > 0) parts.unshift({ type: wholeTypes.length === 1 ? wholeTypes[0]! : wholeTypes });
  return { parts, consumed };
}
