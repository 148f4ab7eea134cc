/**
 * The part of a zod schema (v3 or v4) that validation after decoding needs, and the shape a
 * Standard Schema's own validation is adapted to (standard.ts). It lives with the schema model
 * because the input adapters produce it; the validation step consumes it.
 */

export interface ZodLike<Out = unknown> {
  safeParse(data: unknown): ZodSafeParse<Out>;
  /** How its issues are labelled (default "zod"; "schema" for a Standard Schema's validation). */
  readonly issueSource?: "zod" | "schema";
}

export type ZodSafeParse<Out> =
  | { readonly success: true; readonly data: Out }
  | {
      readonly success: false;
      readonly error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] };
    };
