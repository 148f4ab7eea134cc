/**
 * `expectLanguage`: asserts that a schema's grammar accepts each valid instance and rejects each
 * invalid one, through the byte automaton and through the reference matcher. Instances are
 * serialized with JSON.stringify (compact) unless given as `{ raw: text }`.
 */

import { expect } from "vitest";
import type { CompileOptions } from "../../../src/schema-compiler/index.js";
import { acceptor } from "./accept.js";

export interface Raw {
  readonly raw: string;
}
export const raw = (text: string): Raw => ({ raw: text });
const isRaw = (x: unknown): x is Raw => typeof x === "object" && x !== null && "raw" in x && Object.keys(x).length === 1;
const text = (x: unknown): string => (isRaw(x) ? x.raw : JSON.stringify(x));

export function expectLanguage(schema: unknown, options: CompileOptions, valid: readonly unknown[], invalid: readonly unknown[]): void {
  const acc = acceptor(schema, options);
  const verdicts = (xs: readonly unknown[]) => xs.map((x) => ({ text: text(x), dfa: acc.dfa(text(x)), ref: acc.ref(text(x)) }));
  expect(verdicts(valid)).toEqual(valid.map((x) => ({ text: text(x), dfa: true, ref: true })));
  expect(verdicts(invalid)).toEqual(invalid.map((x) => ({ text: text(x), dfa: false, ref: false })));
}
