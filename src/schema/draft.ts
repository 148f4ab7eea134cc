/**
 * Draft detection from the root's `$schema`: which dialect rules apply to the whole document.
 * Draft 7 and earlier ignore the siblings of `$ref`; drafts 3 and 4 name resources with `id`
 * instead of `$id`. Without `$schema`, draft 2020-12 (what Zod 4 emits).
 */

export interface Draft {
  /** Draft 7 and earlier: siblings of `$ref` are ignored. */
  readonly legacyRefs: boolean;
  /** Drafts 3 and 4: `id` names a resource. */
  readonly draft4Ids: boolean;
  /** Drafts 3 and 4: an integer is a number written without fraction (2.0 is not one; from
   *  draft 6 on it is, any number with a zero fractional part is). */
  readonly fractionlessIntegers: boolean;
  /** Drafts 3 to 6: `if`/`then`/`else` are no keywords there (draft 7 introduced them). */
  readonly noConditionals: boolean;
}

export function detectDraft(root: unknown): Draft {
  const schemaUri = typeof root === "object" && root !== null && "$schema" in root ? String((root as { $schema: unknown }).$schema) : "";
  const draft3or4 = /draft-0[34]/.test(schemaUri);
  return { legacyRefs: /draft-0[3-7]/.test(schemaUri), draft4Ids: draft3or4, fractionlessIntegers: draft3or4, noConditionals: /draft-0[3-6]/.test(schemaUri) };
}
