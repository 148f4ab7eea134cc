/**
 * Byte equivalence classes: partitions of 0..255 into classes of bytes that an automaton treats
 * alike. Used to keep transition tables narrow (a JSON automaton needs ~10-30 classes, not 256).
 * Not for anything that depends on automaton semantics beyond column equality.
 */
import type { ByteDfa } from "./dfa.js";

export interface Partition {
  readonly classOf: Uint8Array;
  readonly numClasses: number;
}

/** (class so far, label) -> new class, stamped per labeling so the table is never cleared. */
const LABELS = 256;
const pairClass = new Int32Array(256 * LABELS);
const pairStamp = new Int32Array(256 * LABELS);
let stamp = 0;

/** The coarsest partition refining all the given labelings (bytes equal under every labeling).
 *  Labels are bytes, as in every automaton's classOf: one array type keeps the loop's reads
 *  monomorphic (mixing in plain arrays made it several times slower). */
export function refine(...labelings: Uint8Array[]): Partition {
  let classOf = new Uint8Array(256);
  let numClasses = 1;
  // One labeling at a time: a byte's new class is its (class so far, label) pair, renumbered.
  for (const label of labelings) {
    const next = new Uint8Array(256);
    let count = 0;
    stamp++;
    for (let b = 0; b < 256; b++) {
      const pair = classOf[b]! * LABELS + label[b]!;
      if (pairStamp[pair] !== stamp) {
        pairStamp[pair] = stamp;
        pairClass[pair] = count++;
      }
      next[b] = pairClass[pair]!;
    }
    classOf = next;
    numClasses = count;
  }
  return { classOf, numClasses };
}

/**
 * refine() of automata's byte classes, reading each distinct partition once: a grammar's rules
 * (hundreds in a big schema) have a few distinct partitions among them (a quarter, on MaskBench),
 * and refine's result depends on neither order nor repeats (classes are numbered by their least
 * byte). `classOf` arrays must not change once built, as every automaton's do not.
 */
export function refineClasses(classOfs: readonly Uint8Array[]): Partition {
  const seen = new Set<number>();
  const distinct: Uint8Array[] = [];
  for (const classOf of classOfs) {
    const id = contentId(classOf);
    if (!seen.has(id)) {
      seen.add(id);
      distinct.push(classOf);
    }
  }
  return refine(...distinct);
}

/** Per classOf array, an id equal for equal contents: shared rule automata keep their arrays
 *  across grammars, so each is hashed once per process. */
const contentIds = new WeakMap<Uint8Array, number>();
/** Contents seen, by hash, with their ids. Bounded: past MAX_CONTENTS it starts afresh; ids are
 *  never reused, so an array keeps a valid id and only misses being merged with later equals. */
const contentsByHash = new Map<number, { readonly content: Uint8Array; readonly id: number }[]>();
const MAX_CONTENTS = 1024;
let nextContentId = 0;

function contentId(classOf: Uint8Array): number {
  let id = contentIds.get(classOf);
  if (id !== undefined) return id;
  let hash = 0;
  for (let b = 0; b < 256; b++) hash = (Math.imul(hash, 31) + classOf[b]!) | 0;
  let bucket = contentsByHash.get(hash);
  if (bucket === undefined) {
    if (contentsByHash.size >= MAX_CONTENTS) contentsByHash.clear();
    contentsByHash.set(hash, (bucket = []));
  }
  id = bucket.find((entry) => sameBytes(entry.content, classOf))?.id;
  if (id === undefined) bucket.push({ content: classOf, id: (id = nextContentId++) });
  contentIds.set(classOf, id);
  return id;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 256; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Partition whose class boundaries are the given cut points (a class starts at each cut). */
export function partitionFromCuts(cuts: Iterable<number>): Partition {
  const starts = new Uint8Array(257);
  starts[0] = 1;
  for (const c of cuts) if (c >= 0 && c < 256) starts[c] = 1;
  const classOf = new Uint8Array(256);
  let cls = -1;
  for (let b = 0; b < 256; b++) {
    if (starts[b]) cls++;
    classOf[b] = cls;
  }
  return { classOf, numClasses: cls + 1 };
}

/** Merges byte classes whose transition columns are identical in every state (call columns are
 *  kept as they are, after the byte classes). */
export function compressClasses(dfa: ByteDfa): ByteDfa {
  const { numStates: n, numClasses: k, trans } = dfa;
  const calls = dfa.callees?.length ?? 0;
  const byteClasses = k - calls;
  const sameColumn = (a: number, b: number): boolean => {
    for (let s = 0; s < n; s++) if (trans[s * k + a] !== trans[s * k + b]) return false;
    return true;
  };
  const hash = new Int32Array(byteClasses);
  for (let s = 0; s < n; s++) for (let c = 0; c < byteClasses; c++) hash[c] = Math.imul(hash[c]!, 31) + trans[s * k + c]!;
  // colId[c]: the first class with the same column; representatives get consecutive new ids.
  const colId = new Int32Array(byteClasses);
  const reps: number[] = [];
  for (let c = 0; c < byteClasses; c++) {
    const same = reps.findIndex((r) => hash[r] === hash[c] && sameColumn(r, c));
    colId[c] = same >= 0 ? same : reps.push(c) - 1;
  }
  if (reps.length === byteClasses) return dfa;
  for (let c = byteClasses; c < k; c++) reps.push(c);
  const nk = reps.length;
  const out = new Int32Array(n * nk);
  for (let s = 0; s < n; s++) for (let r = 0; r < nk; r++) out[s * nk + r] = trans[s * k + reps[r]!]!;
  const classOf = new Uint8Array(256);
  for (let b = 0; b < 256; b++) classOf[b] = colId[dfa.classOf[b]!]!;
  return { ...dfa, numClasses: nk, classOf, trans: out };
}
