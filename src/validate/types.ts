/**
 * Public type of validation: one problem found in an extracted value. Kept apart from the code
 * so that the extractor, the report and the CLI can import the shape without pulling in ajv.
 */

/** One validation problem. `pointer` is the RFC 6901 form of `path` ("" is the root).
 *  `source`: the validator that found it ("schema": a Standard Schema's own `~standard.validate`),
 *  or "json" for the raw text itself (a repeated key), or "chunks" for a long document's chunks
 *  that found different values for one field (reported; it does not make the result invalid). */
export interface Issue {
  readonly path: (string | number)[];
  readonly pointer: string;
  readonly message: string;
  readonly source: "ajv" | "zod" | "schema" | "json" | "chunks";
}
