/**
 * Arbitrary documents of a compiled schema: a fast-check array of integer choices, walked through
 * the byte automaton (walk.ts). The text is exactly what the grammar lets the model write;
 * `value` is what JSON.parse makes of it.
 */
import { array, nat, type Arbitrary } from "fast-check";
import type { SchemaSource } from "./source.js";

export interface Document {
  /** The exact output text, as the model would have written it. */
  readonly raw: string;
  readonly value: unknown;
}

/** Default number of choices per document: room for a few fields of a dozen characters each. */
export const DEFAULT_MAX_CHOICES = 200;

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

export function documents(source: SchemaSource, maxChoices: number = DEFAULT_MAX_CHOICES): Arbitrary<Document> {
  // size "max": let fast-check draw any length up to maxChoices, not its small default (10).
  return array(nat(), { maxLength: maxChoices, size: "max" })
    .map((choices): Document => {
      // fatal decoding: the automaton only spells well-formed UTF-8, so a throw here is a bug.
      const raw = decoder.decode(source.walker.walk(choices));
      return { raw, value: JSON.parse(raw) as unknown };
    })
    .filter((d) => keepsItsForm(source, d.value));
}

/**
 * True when the value is what its own compact JSON (JSON.stringify) says, and that JSON is still
 * a document of the grammar. It fails only where JSON.parse loses information: a number beyond
 * double range (1e400 becomes Infinity, which stringifies as null). Such documents are skipped:
 * the grammar does allow them, but no app ever receives them as valid data (ajv rejects them).
 */
export function keepsItsForm(source: SchemaSource, value: unknown): boolean {
  return allFinite(value) && source.walker.accepts(encoder.encode(JSON.stringify(value)));
}

function allFinite(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (value !== null && typeof value === "object") return Object.values(value).every(allFinite);
  return true;
}
