/**
 * Builds the ExtractResult that `extract()` would return for a given model output and text, with
 * the verification steps the extractor runs (resolve null escapes, validate with ajv and zod,
 * ground every field, mark fields cut by budget-aware completion). Statuses, spans, `ok` and
 * `data` therefore come from the real code, not from a model of it; test/testing checks that
 * they equal the extractor's own result for the same output.
 */
import { markTruncated } from "../extract/truncation.js";
import { resolveNullEscapes } from "../extract/null-escapes.js";
import type { ExtractResult, ExtractStats } from "../extract/types.js";
import { groundFields, toPointer, validate, type ZodLike } from "../verify/index.js";
import type { Issue } from "../verify/types.js";
import type { SchemaSource } from "./source.js";

/** Same wording as the extractor, so apps matching on it see what production shows. */
const MISSING_REQUIRED = "required field not stated in the text (the model answered null)";

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
  const { jsonSchema } = source;
  const zod = source.zod as ZodLike<T> | undefined;
  const escapes = resolveNullEscapes(JSON.parse(spec.raw), (v) => validate(v, jsonSchema).issues);
  const checked = validate(escapes.value, jsonSchema, zod);
  const missing = new Set(escapes.missingRequired);
  const issues: Issue[] = checked.issues.map((i) => (missing.has(i.pointer) ? { ...i, message: MISSING_REQUIRED } : i));
  if (spec.refinementFailure) {
    const path = [...spec.refinementFailure];
    issues.push({ path, pointer: toPointer(path), message: "failed a refinement (synthetic issue from pocket-extract/testing)", source: "zod" });
  }
  const fields = markTruncated(
    groundFields(escapes.value, spec.text, { schema: jsonSchema, issues: issues.filter((i) => !missing.has(i.pointer)) }),
    spec.raw,
    spec.cutAt,
  );
  const ok = checked.ok && spec.refinementFailure === undefined && spec.stats.stopReason !== "budget";
  return { ok, data: ok ? checked.data : null, partial: escapes.value, fields, issues, raw: spec.raw, stats: spec.stats };
}
