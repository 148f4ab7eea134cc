/**
 * From the model's raw JSON to the verified part of an ExtractResult: resolve the null escapes,
 * report repeated keys (../validate/duplicate-keys.ts), validate and ground every field
 * (verify-value.ts), mark the fields budget-aware completion cut short. One function so the
 * extractor and pocket-extract/testing build results the same way.
 */
import type { GroundingOptions } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { duplicateKeyIssues, validate, type Issue, type ZodLike } from "../validate/index.js";
import { resolveNullEscapes } from "./null-escapes.js";
import { markTruncated } from "./truncation.js";
import type { ExtractResult } from "./types.js";
import { verify } from "./verify-value.js";

export const MISSING_REQUIRED = "required field not stated in the text (the model answered null)";

export interface OutputToVerify<T> {
  readonly raw: string;
  readonly text: string;
  readonly jsonSchema: JsonSchema;
  readonly zod?: ZodLike<T>;
  /** Byte offset of `raw` where budget-aware completion took over, if it did. */
  readonly cutAt?: number;
  readonly grounding?: GroundingOptions;
  /** Extra problems found elsewhere (they make the result not ok). */
  readonly extraIssues?: readonly Issue[];
}

export type VerifiedOutput<T> = DistributiveOmit<ExtractResult<T>, "raw" | "stats">;
type DistributiveOmit<U, K extends PropertyKey> = U extends unknown ? Omit<U, K> : never;

export function verifyOutput<T>(o: OutputToVerify<T>): VerifiedOutput<T> {
  const escapes = resolveNullEscapes(JSON.parse(o.raw), (v) => validate(v, o.jsonSchema).issues);
  const extraIssues = [...duplicateKeyIssues(o.raw), ...(o.extraIssues ?? [])];
  const checked = verify(escapes.value, o.text, { ...o.grounding, jsonSchema: o.jsonSchema, zodSchema: o.zod, extraIssues });
  const missing = new Set(escapes.missingRequired);
  const issues = checked.issues.map((i) => (missing.has(i.pointer) ? { ...i, message: MISSING_REQUIRED } : i));
  const fields = markTruncated(checked.fields, o.raw, o.cutAt);
  const parts = { grounded: !fields.some((f) => f.status === "fabricated"), partial: escapes.value, fields, issues };
  return checked.ok && o.cutAt === undefined ? { ...parts, ok: true, data: checked.data as T } : { ...parts, ok: false, data: null };
}
