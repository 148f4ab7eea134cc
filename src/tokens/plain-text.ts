/**
 * Tokenizing untrusted text so that it can never become a control token. Tokenizers recognise
 * special and added tokens (`<|im_end|>`, `<tool_call>`, `<think>` ...) by their spelling inside
 * text; llama.cpp does so for user-defined tokens even with special parsing off. So the text is
 * cut right after the first character of every spelling of a special token of the vocabulary,
 * and each piece is tokenized on its own: no piece holds a whole spelling. A piece whose ids
 * still contain a special (a tokenizer that matches spellings after normalizing) is tokenized
 * one character at a time. Text without any special spelling is tokenized exactly as before.
 */
import { PocketExtractError } from "../errors.js";
import type { Vocabulary } from "./vocabulary.js";

/** A piece of a prompt: template control tokens are `control`, everything else is text. */
export interface PromptSegment {
  readonly text: string;
  readonly control: boolean;
}

const spellingsByVocabulary = new WeakMap<Vocabulary, readonly string[]>();

/** The texts of the vocabulary's special tokens. */
export function specialSpellings(vocabulary: Vocabulary): readonly string[] {
  let spellings = spellingsByVocabulary.get(vocabulary);
  if (spellings === undefined) {
    const decoder = new TextDecoder();
    const found = new Set<string>();
    for (let id = 0; id < vocabulary.size; id++) {
      if (!vocabulary.isSpecial(id)) continue;
      const text = decoder.decode(vocabulary.bytes(id));
      if (text.length > 0) found.add(text);
    }
    spellings = [...found];
    spellingsByVocabulary.set(vocabulary, spellings);
  }
  return spellings;
}

/** Token ids of `text` as plain text: no id is a special token. */
export function encodePlainText(vocabulary: Vocabulary, text: string): number[] {
  const cuts = new Set<number>();
  for (const spelling of specialSpellings(vocabulary)) {
    for (let at = text.indexOf(spelling); at !== -1; at = text.indexOf(spelling, at + 1)) cuts.add(at + 1);
  }
  const ids: number[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    append(ids, plainPiece(vocabulary, text.slice(from, cut)));
    from = cut;
  }
  append(ids, plainPiece(vocabulary, text.slice(from)));
  return ids;
}

function plainPiece(vocabulary: Vocabulary, piece: string): number[] {
  if (piece === "") return [];
  const ids = vocabulary.encode(piece);
  if (!ids.some((id) => vocabulary.isSpecial(id))) return ids;
  const perCharacter = [...piece].flatMap((ch) => vocabulary.encode(ch));
  if (perCharacter.some((id) => vocabulary.isSpecial(id))) {
    throw new PocketExtractError("TOKENIZER_UNSUPPORTED", "the tokenizer turns single characters of text into special tokens; text cannot be kept plain");
  }
  return perCharacter;
}

/**
 * Ids of a prompt given as segments: a control segment is its special token's id (plain text
 * when the vocabulary has no such token); adjacent text segments are joined, then tokenized as
 * plain text, so a prompt without special spellings in its text tokenizes as its whole string.
 */
export function encodeSegments(vocabulary: Vocabulary, segments: readonly PromptSegment[]): number[] {
  const ids: number[] = [];
  let text = "";
  for (const s of segments) {
    const special = s.control ? vocabulary.specialId(s.text) : undefined;
    if (special === undefined) {
      text += s.text;
      continue;
    }
    if (text !== "") append(ids, encodePlainText(vocabulary, text));
    text = "";
    ids.push(special);
  }
  if (text !== "") append(ids, encodePlainText(vocabulary, text));
  return ids;
}

/** Appends without spreading (a long document's ids exceed the argument limit of push). */
function append(out: number[], ids: readonly number[]): void {
  for (const id of ids) out.push(id);
}
