/**
 * Everything the mask engine precomputes once per vocabulary, independent of any grammar:
 * the token trie, a flat table of token bytes (for `accept`), the mask of all text tokens, and
 * per-trie-node UTF-8 annotations used to accept whole subtrees inside free text (see `skipChars`).
 * Built lazily and shared by every grammar compiled for the same vocabulary.
 */
import { packBytes } from "../tokens/index.js";
import { TokenTrie } from "../tokens/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { buildAutomaton, plainLeadPending } from "../automaton/index.js";
import { jsonString } from "../grammar/index.js";
import { setBit, wordsFor } from "../util/index.js";
import { MaskComputer } from "./mask-computer.js";
import type { VocabIndex } from "./mask-types.js";

const indexes = new WeakMap<Vocabulary, VocabIndex>();

export function vocabIndex(vocabulary: Vocabulary): VocabIndex {
  let index = indexes.get(vocabulary);
  if (!index) {
    index = buildVocabIndex(vocabulary);
    indexes.set(vocabulary, index);
    warmUp(index);
  }
  return index;
}

function buildVocabIndex(vocabulary: Vocabulary): VocabIndex {
  const trie = TokenTrie.build(vocabulary);
  const width = vocabulary.width;
  const maskWords = wordsFor(width);

  // Specials and ids past the tokenizer get no bytes: `accept` then treats them as dead.
  const textBytes = (id: number): Uint8Array | undefined =>
    id >= vocabulary.size || vocabulary.isSpecial(id) ? undefined : vocabulary.bytes(id);
  const { data: byteData, offsets: byteOffsets } = packBytes(width, textBytes);
  const textMask = new Uint32Array(maskWords);
  for (let id = 0; id < width; id++) if (byteOffsets[id + 1]! > byteOffsets[id]!) setBit(textMask, id);

  const { utf8Pos, skipChars } = annotateTrie(trie);
  return {
    vocabulary,
    trie,
    width,
    maskWords,
    byteOffsets,
    byteData,
    textMask,
    eosIds: vocabulary.eosIds,
    utf8Pos,
    skipChars,
    memoryBytes:
      trie.memoryBytes + byteOffsets.byteLength + byteData.byteLength + textMask.byteLength + utf8Pos.byteLength + skipChars.byteLength,
  };
}

const UNSAFE = -1;
const CAP = 0x7fff;

/**
 * Bottom-up over the preorder numbering: plain[p][n] = the most characters started by any path
 * below n read from UTF-8 position p, or UNSAFE if some path leaves "plain text".
 */
function annotateTrie(trie: TokenTrie): { utf8Pos: Int8Array; skipChars: Int16Array } {
  const n = trie.numNodes;
  const { byte, subtreeEnd } = trie;
  const plain: [Int16Array, Int16Array, Int16Array, Int16Array] = [new Int16Array(n), new Int16Array(n), new Int16Array(n), new Int16Array(n)];
  for (let node = n - 1; node >= 0; node--) {
    let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    for (let child = node + 1; child < subtreeEnd[node]!; child = subtreeEnd[child]!) {
      const b = byte[child]!;
      // From a character boundary.
      if (c0 !== UNSAFE) {
        const pending = plainLeadPending(b);
        const below = pending < 0 ? UNSAFE : plain[pending]![child]!;
        c0 = below === UNSAFE ? UNSAFE : Math.max(c0, Math.min(CAP, below + 1));
      }
      // Inside a character: only a continuation byte keeps the path plain.
      const isCont = b >= 0x80 && b <= 0xbf;
      c1 = c1 === UNSAFE || !isCont || plain[0][child] === UNSAFE ? UNSAFE : Math.max(c1, plain[0][child]!);
      c2 = c2 === UNSAFE || !isCont || plain[1][child] === UNSAFE ? UNSAFE : Math.max(c2, plain[1][child]!);
      c3 = c3 === UNSAFE || !isCont || plain[2][child] === UNSAFE ? UNSAFE : Math.max(c3, plain[2][child]!);
    }
    plain[0][node] = c0;
    plain[1][node] = c1;
    plain[2][node] = c2;
    plain[3][node] = c3;
  }

  const utf8Pos = new Int8Array(n);
  const skipChars = new Int16Array(n);
  utf8Pos[0] = 0;
  skipChars[0] = plain[0][0]!;
  // Preorder: a parent is numbered before its children, so one forward pass sets positions.
  const parentStack: number[] = [0];
  for (let node = 1; node < n; node++) {
    const d = trie.depth[node]!;
    parentStack.length = d;
    const parent = parentStack[d - 1]!;
    const pp = utf8Pos[parent]!;
    const b = byte[node]!;
    let pos: number;
    if (pp < 0) pos = -1;
    else if (pp > 0) pos = b >= 0x80 && b <= 0xbf ? pp - 1 : -1;
    else if (b < 0x80) pos = 0;
    else if (b >= 0xc2 && b <= 0xdf) pos = 1;
    else if (b >= 0xe0 && b <= 0xef) pos = 2;
    else if (b >= 0xf0 && b <= 0xf4) pos = 3;
    else pos = -1;
    utf8Pos[node] = pos;
    skipChars[node] = pos < 0 ? UNSAFE : plain[pos]![node]!;
    parentStack.push(node);
  }
  return { utf8Pos, skipChars };
}

/**
 * The first trie walks in a fresh process run 10-50x slower until the JIT has compiled them.
 * Walk a few masks of a JSON-string automaton now, at load time, so the first document's first
 * tokens do not pay for it: before the opening quote, inside the body, and after a character.
 */
function warmUp(index: VocabIndex): void {
  const automaton = buildAutomaton({ start: "s", rules: new Map([["s", jsonString({})]]) });
  const body = automaton.step(automaton.start, 0x22);
  const states = [automaton.start, body, automaton.step(body, 0x61)];
  const computer = new MaskComputer(automaton, index);
  const out = new Uint32Array(index.maskWords);
  for (let i = 0; i < 6; i++) {
    for (const state of states) {
      out.fill(0);
      computer.compute(state, out);
    }
  }
}
