/**
 * `arbitraryResult(schema, text?)`: whole ExtractResult objects as `extract()` returns them, for
 * testing UI and business logic against every field status. Each result starts from a grammar
 * document, has some leaves answered null (missing) or swapped for pieces of the text (found,
 * with real spans), sometimes a refinement failure (invalid) or a budget cut (truncated fields,
 * not ok), and is then verified by the extractor's own steps (result.ts), so `ok`, `data`,
 * `issues` and statuses agree the way they do in production.
 */
import { array, constant, integer, nat, oneof, record, type Arbitrary } from "fast-check";
import type { ExtractResult, InferOutput } from "../extract/index.js";
import { DEFAULT_MAX_CHOICES, documents } from "./documents.js";
import { buildResult } from "./result.js";
import { schemaSource } from "./source.js";
import { plausibleStats } from "./stats.js";
import { groundedVariant, scalarLeaves, textFromValue, textPieces } from "./text-values.js";

/** Options of `arbitraryResult`: the text the spans point into and the size limits. */
export interface ArbitraryResultOptions {
  /** See ArbitraryOptions.maxChoices. */
  readonly maxChoices?: number;
  /** Same as the extractor option (default 200). */
  readonly defaultMaxStringLength?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One in ten results is cut by the token budget, one in ten fails a refinement. */
const rare = <T>(arb: Arbitrary<T>): Arbitrary<T | undefined> =>
  oneof({ arbitrary: constant(undefined), weight: 9 }, { arbitrary: arb, weight: 1 });

/**
 * A fast-check arbitrary of whole extraction results for a schema (data, field statuses with spans,
 * issues), as an Extractor can return them.
 */
export function arbitraryResult<S>(
  schema: S,
  text?: string,
  options: ArbitraryResultOptions = {},
): Arbitrary<ExtractResult<InferOutput<S>>> {
  const sourceOptions = { defaultMaxStringLength: options.defaultMaxStringLength };
  const source = schemaSource(schema, { ...sourceOptions, escapes: true });
  // Documents come from the escape-free grammar (a subset); nulls are then placed per leaf, so
  // "missing" stays one status among several instead of half of all fields.
  const plain = schemaSource(schema, { ...sourceOptions, escapes: false });
  const pieces = text === undefined ? undefined : textPieces(text);
  return record({
    doc: documents(plain, options.maxChoices ?? DEFAULT_MAX_CHOICES),
    leafChoices: array(nat(), { minLength: 1, maxLength: 32 }),
    cutPermille: rare(integer({ min: 0, max: 999 })),
    refinement: rare(nat()),
    forcedPercent: integer({ min: 20, max: 60 }),
    msPerToken: integer({ min: 8, max: 40 }),
  }).map((r) => {
    const docText = text ?? textFromValue(r.doc.value, r.leafChoices);
    const value = groundedVariant(source, r.doc.value, r.leafChoices, pieces);
    // Keep the model's own spelling (escapes and all) unless a leaf was swapped.
    const written = JSON.stringify(value) === JSON.stringify(r.doc.value) ? r.doc.raw : JSON.stringify(value);
    const bytes = encoder.encode(written);
    const cutAt = r.cutPermille === undefined ? undefined : Math.floor((bytes.length * r.cutPermille) / 1000);
    const raw = cutAt === undefined ? written : decoder.decode(source.walker.cutShort(bytes, cutAt));
    const rawBytes = encoder.encode(raw);
    const leaves = scalarLeaves(JSON.parse(raw));
    const refinementFailure = r.refinement === undefined || leaves.length === 0 ? undefined : leaves[r.refinement % leaves.length]!.path;
    const stats = plausibleStats({
      rawBytes: rawBytes.length,
      textLength: docText.length,
      stopReason: cutAt !== undefined ? "budget" : source.walker.isClosed(rawBytes) ? "closed" : "eos",
      completedBytes: cutAt === undefined ? 0 : rawBytes.length - cutAt,
      forcedPercent: r.forcedPercent,
      msPerToken: r.msPerToken,
    });
    return buildResult<InferOutput<S>>(source, { raw, text: docText, stats, cutAt, refinementFailure });
  });
}
