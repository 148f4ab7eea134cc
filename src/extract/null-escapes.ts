/**
 * In extraction mode every property may come back as null: the grammar's explicit "the text does
 * not say" escape, so the model is never forced to invent a value. This module turns those nulls
 * back into what the schema means: an optional property that does not admit null is dropped; a
 * required one stays null and is reported missing. The JSON Schema validator is the oracle (it
 * resolves $refs and combinators the same way the final validation does).
 */
import { toPointer } from "../util/index.js";
import type { Issue } from "../validate/index.js";

export interface EscapeResolution {
  /** The value with optional null escapes removed (a deep copy; the input is untouched). */
  readonly value: unknown;
  /** Pointers of required properties that came back null. */
  readonly missingRequired: readonly string[];
}

type Validator = (value: unknown) => readonly Issue[];

export function resolveNullEscapes(parsed: unknown, validate: Validator): EscapeResolution {
  const value = structuredClone(parsed);
  const nullProps = collectNullProperties(value);
  if (nullProps.length === 0) return { value, missingRequired: [] };
  const failing = new Set(validate(value).map((i) => i.pointer));
  const escapes = nullProps.filter((p) => failing.has(p.pointer));
  for (const p of escapes) delete p.parent[p.key];
  // Whatever the schema now reports as a missing required property was required: put the null back.
  const afterwards = new Set(validate(value).map((i) => i.pointer));
  const missingRequired: string[] = [];
  for (const p of escapes) {
    if (afterwards.has(p.pointer)) {
      // An own data property even for "__proto__" (plain assignment would set the prototype).
      Object.defineProperty(p.parent, p.key, { value: null, writable: true, enumerable: true, configurable: true });
      missingRequired.push(p.pointer);
    }
  }
  return { value, missingRequired };
}

interface NullProperty {
  readonly parent: Record<string, unknown>;
  readonly key: string;
  readonly pointer: string;
}

function collectNullProperties(root: unknown): NullProperty[] {
  const out: NullProperty[] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...path, i]));
    } else if (node !== null && typeof node === "object") {
      const obj = node as Record<string, unknown>;
      for (const [key, child] of Object.entries(obj)) {
        if (child === null) out.push({ parent: obj, key, pointer: toPointer([...path, key]) });
        else visit(child, [...path, key]);
      }
    }
  };
  visit(root, []);
  return out;
}
