/**
 * Everything the mask engine precomputes once per vocabulary, independent of any grammar:
 * the token trie, a flat table of token bytes (for `accept`), the mask of all text tokens,
 * per-trie-node UTF-8 annotations used to accept whole subtrees inside free text (see `skipChars`),
 * the byte groups below each node (uniform runs, subtree-groups.ts), and the plain tails free
 * string bodies are masked from (plain-tails.ts).
 * Built lazily and shared by every grammar compiled for the same vocabulary.
 */
import { packBytes } from "../tokens/index.js";
import { TokenTrie } from "../tokens/index.js";
import type { Vocabulary } from "../tokens/index.js";
import { buildAutomaton } from "../automaton/index.js";
import { jsonString } from "../grammar/index.js";
import { setBit, wordsFor } from "../util/index.js";
import { MaskComputer } from "./mask-computer.js";
import { makePlainTails } from "./plain-tails.js";
import { subtreeGroups } from "./subtree-groups.js";
import { annotateTrie } from "./trie-annotations.js";
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
  const subtrees = subtreeGroups(trie);
  const plainTails = makePlainTails({ width, byteOffsets, byteData, textMask });
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
    subtrees,
    plainTails,
    memoryBytes:
      trie.memoryBytes +
      byteOffsets.byteLength +
      byteData.byteLength +
      textMask.byteLength +
      utf8Pos.byteLength +
      skipChars.byteLength +
      subtrees.memoryBytes +
      plainTails.memoryBytes,
  };
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
