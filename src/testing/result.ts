/**
 * Builds the ExtractResult that `extract()` would return for a given model output and text, with
 * the verification steps the extractor runs (resolve null escapes, validate with ajv and zod,
 * ground every field, mark fields cut by budget-aware completion). Statuses, spans, `ok` and
 * `data` therefore come from the real code, not from a model of it; test/testing checks that
 * they equal the extractor's own result for the same output.
 */
import type { ExtractResult, ExtractStats } from "../extract/index.js";
import { verifyOutput } from "../extract/index.js";
import { toPointer } from "../util/index.js";
import type { ZodLike } from "../validate/index.js";
import type { SchemaSource } from "./source.js";

export interface ResultSpec {
  /** The exact model output (a document of the grammar). */
  readonly raw: string;
  readonly text: string;
  readonly stats: ExtractStats;
  /** Byte offset of `raw` where budget-aware completion took over (stats.stopReason "budget"). */
  readonly cutAt?: number;
  /** A refinement failure to add at this leaf path (zod refinements can fail on any value). */
  readonly refinementFailure?: readonly (string | number)[];
}

export function buildResult<T>(source: SchemaSource, spec: ResultSpec): ExtractResult<T> {
  const path = spec.refinementFailure ? [...spec.refinementFailure] : undefined;
  const verified = verifyOutput({
    raw: spec.raw,
    text: spec.text,
    jsonSchema: source.jsonSchema,
    zod: source.zod as ZodLike<T> | undefined,
    cutAt: spec.cutAt,
    extraIssues: path && [{ path, pointer: toPointer(path), message: "failed a refinement (synthetic issue from pocket-extract/testing)", source: "zod" }],
  });
  return { ...verified, raw: spec.raw, stats: spec.stats };
}
