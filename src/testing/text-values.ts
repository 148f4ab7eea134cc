/**
 * Realistic values for results: a generated document's string and number leaves are swapped for
 * pieces of the source text (so grounding finds them, with spans that point into the text), and
 * when no text is given, one is written from the value's own leaves. Every swap is kept only if
 * the whole document is still one the grammar accepts, so results stay faithful to the grammar.
 */
import type { SchemaSource } from "./source.js";

const encoder = new TextEncoder();

type Path = readonly (string | number)[];

interface ScalarLeaf {
  readonly path: Path;
  readonly value: string | number;
}

/** String and number leaves of a JSON value, in document order (object keys are not leaves). */
export function scalarLeaves(value: unknown, path: Path = []): ScalarLeaf[] {
  if (typeof value === "string" || typeof value === "number") return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => scalarLeaves(v, [...path, i]));
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => scalarLeaves(v, [...path, k]));
  return [];
}

/** Verbatim pieces of a text: runs between separators, and numbers (thousands commas dropped). */
export interface TextPieces {
  readonly strings: readonly string[];
  readonly numbers: readonly number[];
}

const WORD = /[^\s,，。;；:：、!！?？()（）"“”'‘’]+/gu;
const NUMBER = /\d[\d,]*(?:\.\d+)?/g;

export function textPieces(text: string): TextPieces {
  const words = [...text.matchAll(WORD)];
  // A word and the stretch up to the end of the next one: values like "Book Pro 14" span spaces.
  const pairs = words.slice(0, -1).map((w, i) => text.slice(w.index, words[i + 1].index + words[i + 1][0].length));
  return {
    strings: [...words.map((w) => w[0]), ...pairs],
    numbers: [...text.matchAll(NUMBER)].map((m) => Number(m[0].replace(/,/g, ""))).filter(Number.isFinite),
  };
}

/**
 * The value with leaves replaced by text pieces where `choices` say so (choice % 4 !== 0, the
 * piece picked by the choice) and the grammar still accepts the document. Returns a copy.
 */
export function groundedVariant(source: SchemaSource, value: unknown, pieces: TextPieces, choices: readonly number[]): unknown {
  const out = structuredClone(value);
  scalarLeaves(out).forEach((leaf, i) => {
    const c = choices[i % Math.max(1, choices.length)] ?? 0;
    const pool: readonly (string | number)[] = typeof leaf.value === "string" ? pieces.strings : pieces.numbers;
    // A scalar root has no parent to swap it in; such schemas get no swaps.
    if (c % 4 === 0 || pool.length === 0 || leaf.path.length === 0) return;
    setAt(out, leaf.path, pool[Math.floor(c / 4) % pool.length]);
    if (!source.walker.accepts(encoder.encode(JSON.stringify(out)))) setAt(out, leaf.path, leaf.value);
  });
  return out;
}

/** A text that states the leaves `choices` pick (choice % 4 !== 0), in order, joined by "，". */
export function textFromValue(value: unknown, choices: readonly number[]): string {
  const stated = scalarLeaves(value)
    .filter((leaf, i) => String(leaf.value).trim() !== "" && (choices[i % Math.max(1, choices.length)] ?? 0) % 4 !== 0)
    .map((leaf) => `${String(leaf.path[leaf.path.length - 1] ?? "value")}: ${String(leaf.value)}`);
  return stated.length > 0 ? stated.join("，") + "。" : "（无相关信息）";
}

function setAt(root: unknown, path: Path, v: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = v;
}
