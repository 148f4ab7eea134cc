/**
 * From the model's raw JSON to the verified part of an ExtractResult: resolve the null escapes,
 * report repeated keys (../validate/duplicate-keys.ts), validate and ground every field
 * (verify-value.ts), mark the fields budget-aware completion cut short. One function so the
 * extractor and pocket-extract/testing build results the same way; its parsed-value half also
 * verifies a stream's elements (element-report.ts).
 */
import type { GroundingOptions } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { duplicateKeyIssues, validate, type Issue, type ZodLike } from "../validate/index.js";
import { resolveNullEscapes } from "./null-escapes.js";
import { markTruncated } from "./truncation.js";
import type { ExtractResult } from "./types.js";
import { verify, type Verification } from "./verify-value.js";

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
  const checked = verifyParsed<T>(JSON.parse(o.raw), { ...o, extraIssues: [...duplicateKeyIssues(o.raw), ...(o.extraIssues ?? [])] });
  const fields = markTruncated(checked.fields, o.raw, o.cutAt);
  const parts = { grounded: !fields.some((f) => f.status === "fabricated"), partial: checked.value, fields, issues: checked.issues };
  return checked.ok && o.cutAt === undefined ? { ...parts, ok: true, data: checked.data as T } : { ...parts, ok: false, data: null };
}

/** A parsed output verified: `value` is it with the null escapes resolved; a required field
 *  answered null has an issue saying so. Shared with the stream's element reports. */
export function verifyParsed<T>(parsed: unknown, o: Omit<OutputToVerify<T>, "raw" | "cutAt">): Verification<T> & { readonly value: unknown } {
  const escapes = resolveNullEscapes(parsed, (v) => validate(v, o.jsonSchema).issues);
  const checked = verify<T>(escapes.value, o.text, { ...o.grounding, jsonSchema: o.jsonSchema, zodSchema: o.zod, extraIssues: o.extraIssues });
  const missing = new Set(escapes.missingRequired);
  const issues = checked.issues.map((i) => (missing.has(i.pointer) ? { ...i, message: MISSING_REQUIRED } : i));
  return { ...checked, issues, value: escapes.value };
}
