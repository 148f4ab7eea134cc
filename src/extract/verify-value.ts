/**
 * Validation and grounding in one call, the way the extractor uses them: validate the value,
 * then ground every leaf with the validation issues attached, so a leaf that failed validation
 * is `invalid`. A required leaf that came back null (or absent) is `invalid` too: it fails the
 * schema at that path, so fields, issues, the result's `ok` and the CLI's document status agree.
 * `missing` is reserved for absences the schema allows.
 */
import { groundFields, type FieldReport, type GroundOptions, type PreparedText } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { validate, type Issue, type ZodLike } from "../validate/index.js";

export interface VerifyOptions<T> extends Omit<GroundOptions, "schema" | "issues"> {
  readonly jsonSchema: JsonSchema;
  readonly zodSchema?: ZodLike<T>;
  /** Problems found by other checks (e.g. a refinement retried elsewhere): reported like
   *  validation issues, so their leaves are `invalid` and the result is not ok. */
  readonly extraIssues?: readonly Issue[];
}

export interface Verification<T> {
  /** The value satisfies the schema (ajv and zod) and no field is `invalid` (a required
   *  field answered null included). Grounding
   *  does not affect `ok`: a fabricated field is reported, not rejected. */
  readonly ok: boolean;
  readonly data: T | null;
  readonly issues: Issue[];
  readonly fields: FieldReport[];
}

export function verify<T = unknown>(value: unknown, text: string | PreparedText, options: VerifyOptions<T>): Verification<T> {
  const { jsonSchema, zodSchema, extraIssues = [], ...ground } = options;
  const v = validate(value, jsonSchema, zodSchema);
  const issues = [...v.issues, ...extraIssues];
  // A required field is only unsatisfied when it is absent or null (the model's "not stated"
  // escape); an empty string or array is a value the schema accepts, reported `missing` but kept.
  const fields = groundFields(value, text, { ...ground, schema: jsonSchema, issues }).map((f) =>
    f.required && (f.value === null || f.value === undefined) ? { ...f, status: "invalid" as const } : f,
  );
  const ok = issues.length === 0 && !fields.some((f) => f.status === "invalid");
  return { ok, data: ok ? v.data : null, issues, fields };
}
