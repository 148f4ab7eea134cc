/**
 * Realistic values for results. One decision per leaf of a generated document (choice % 8):
 * 0..1 keep the generated value (usually fabricated), 2 answers null (missing), 3..7 ground it in
 * the text: with a given text the leaf becomes a piece of it (found, with real spans); without
 * one, `textFromValue` writes a text that states the leaf. Every swap is kept only if the whole
 * document is still one the grammar accepts, so results stay faithful to the grammar.
 */
import { prepareText } from "../ground/index.js";
import type { SchemaSource } from "./source.js";

const encoder = new TextEncoder();

type Path = readonly (string | number)[];

interface Leaf {
  readonly path: Path;
  readonly value: string | number | boolean;
}

/** Scalar leaves of a JSON value (null excluded), in document order; object keys are not leaves. */
export function scalarLeaves(value: unknown, path: Path = []): Leaf[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => scalarLeaves(v, [...path, i]));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => scalarLeaves(v, [...path, k]));
  return [];
}

/** Verbatim pieces of a text: runs between separators, and the numbers grounding reads in it. */
export interface TextPieces {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
}

const WORD = /[^\s,，。;；:：、!！?？()（）"“”'‘’]+/gu;

export function textPieces(text: string): TextPieces {
  const words = [...text.matchAll(WORD)];
  // A word and the stretch up to the end of the next one: values like "Book Pro 14" span spaces.
  const pairs = words.slice(0, -1).map((w, i) => {
    const next = words[i + 1]!;
    return text.slice(w.index, next.index + next[0].length);
  });
  // The aligner's own reading ("¥6,299.00" is 6299; the digits of a date are not numbers), so a
  // swapped-in number is found the way a correct extraction of it would be.
  const numbers = prepareText(text).numbers.map((n) => n.value);
  return { strings: [...words.map((w) => w[0]), ...pairs], numbers: [...new Set(numbers)] };
}

/** Decisions below KEEP_BELOW keep the value, MISSING nulls it, the rest ground it. */
const KEEP_BELOW = 2;
const MISSING = 2;
const DECISIONS = 8;

const decision = (choices: readonly number[], i: number): number => (choices[i % Math.max(1, choices.length)] ?? 0) % DECISIONS;

/** The value (a copy) with leaves answered null or swapped for text pieces as `choices` decide. */
export function groundedVariant(source: SchemaSource, value: unknown, choices: readonly number[], pieces?: TextPieces): unknown {
  const out = structuredClone(value);
  scalarLeaves(value).forEach((leaf, i) => {
    const d = decision(choices, i);
    // A scalar root has no parent to swap it in; such schemas get no swaps.
    if (d < KEEP_BELOW || leaf.path.length === 0) return;
    const pool: readonly (string | number)[] = typeof leaf.value === "string" ? (pieces?.strings ?? []) : typeof leaf.value === "number" ? (pieces?.numbers ?? []) : [];
    if (d !== MISSING && pool.length === 0) return;
    setAt(out, leaf.path, d === MISSING ? null : pool[Math.floor(choices[i % choices.length]! / DECISIONS) % pool.length]);
    if (!source.walker.accepts(encoder.encode(JSON.stringify(out)))) setAt(out, leaf.path, leaf.value);
  });
  return out;
}

/** A text stating the string and number leaves that `groundedVariant` grounds, joined by "，". */
export function textFromValue(value: unknown, choices: readonly number[]): string {
  const stated = scalarLeaves(value)
    .filter((leaf, i) => typeof leaf.value !== "boolean" && String(leaf.value).trim() !== "" && decision(choices, i) > MISSING)
    .map((leaf) => `${String(leaf.path[leaf.path.length - 1] ?? "value")}: ${String(leaf.value)}`);
  return stated.length > 0 ? stated.join("，") + "。" : "（无相关信息）";
}

function setAt(root: unknown, path: Path, v: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = v;
}
