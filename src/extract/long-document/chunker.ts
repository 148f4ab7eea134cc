/**
 * Splits a long document into overlapping chunks the model can read one at a time, cutting where
 * a reader would: at a paragraph break if one is near the size limit, else at the end of a
 * sentence (。！？； and . ! ? followed by a space), else at a line break, else between words (CJK
 * characters are words of their own). A cut never falls inside a Latin word, a number ("1,234.5")
 * or a surrogate pair, unless one such run is longer than a whole chunk. Each chunk after the
 * first starts at a sentence (or word) start inside the previous chunk's last `overlap`
 * characters, so an entity cut by one chunk's end is read whole by the next.
 */

/** A piece of the document: `text === document.slice(start, start + text.length)`. */
export interface Chunk {
  readonly start: number;
  readonly text: string;
}

/** Cut strength, strongest first: where a cut may fall, best reason first. */
const enum Cut {
  Paragraph,
  Sentence,
  Line,
  Word,
}

const SENTENCE_END_CJK = new Set(["。", "！", "？", "；"]);
const SENTENCE_END_LATIN = new Set([".", "!", "?"]);
const CLOSERS = new Set(['"', "'", "”", "’", "」", "』", "）", ")", "]", "》"]);
const WORD_UNIT = /[\p{L}\p{N}_]/u;
const CJK_UNIT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const NUMBER_JOINER = new Set([".", ",", ":", "/", "-"]);

/** Splits `text` into chunks of at most `size` characters (UTF-16 code units) that overlap by
 *  up to `overlap` characters. Chunks holding only white space are left out. */
export function splitIntoChunks(text: string, size: number, overlap: number): Chunk[] {
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < text.length) {
    const end = start + size >= text.length ? text.length : cutBefore(text, start, start + size);
    const piece = text.slice(start, end);
    if (piece.trim().length > 0) chunks.push({ start, text: piece });
    if (end >= text.length) break;
    start = Math.max(nextStart(text, end - overlap, end), start + 1);
  }
  return chunks;
}

/** The best cut in (start + size/2, limit]: the strongest kind, latest position. */
function cutBefore(text: string, start: number, limit: number): number {
  const floor = start + Math.ceil((limit - start) / 2);
  for (const kind of [Cut.Paragraph, Cut.Sentence, Cut.Line, Cut.Word]) {
    for (let p = limit; p > floor; p--) if (isCut(text, p, kind)) return p;
  }
  // One word (or number) longer than half a chunk: cut it, but never inside a surrogate pair.
  return isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit;
}

/** Where the next chunk starts: the first sentence start in [from, end), else the first word
 *  start there, else `end` (no overlap). */
function nextStart(text: string, from: number, end: number): number {
  for (const kind of [Cut.Sentence, Cut.Word]) {
    for (let p = Math.max(from, 1); p < end; p++) if (isCut(text, p, kind)) return skipSpace(text, p, end);
  }
  return end;
}

function skipSpace(text: string, p: number, end: number): number {
  while (p < end && /\s/.test(text.charAt(p))) p++;
  return p;
}

/** True when a cut of this kind (or a stronger one) may fall at `p`, between text[p-1] and text[p]. */
function isCut(text: string, p: number, kind: Cut): boolean {
  if (p <= 0 || p >= text.length) return true;
  if (text[p - 1] === "\n" && text[p - 2] === "\n" && text[p] !== "\n") return true;
  if (kind >= Cut.Sentence && endsSentence(text, p)) return true;
  if (kind >= Cut.Line && text[p - 1] === "\n") return true;
  return kind >= Cut.Word && !insideWord(text, p);
}

/** `p` follows a sentence end (its closing quotes included) and, after Latin punctuation, a space. */
function endsSentence(text: string, p: number): boolean {
  let q = p - 1;
  while (q > 0 && CLOSERS.has(text.charAt(q))) q--;
  if (SENTENCE_END_CJK.has(text.charAt(q))) return !CLOSERS.has(text.charAt(p));
  return SENTENCE_END_LATIN.has(text.charAt(q)) && /\s/.test(text.charAt(p));
}

/** `p` splits a word, a number or a surrogate pair. */
function insideWord(text: string, p: number): boolean {
  if (isLowSurrogate(text.charCodeAt(p))) return true;
  const before = text.charAt(p - 1);
  const after = text.charAt(p);
  if (isWordUnit(before) && isWordUnit(after)) return true;
  const digit = /\d/;
  // "1,234" / "3.5" / "12:30": a joiner between digits belongs to the number.
  if (NUMBER_JOINER.has(before) && digit.test(after) && digit.test(text[p - 2] ?? "")) return true;
  return NUMBER_JOINER.has(after) && digit.test(before) && digit.test(text[p + 1] ?? "");
}

function isWordUnit(ch: string): boolean {
  return WORD_UNIT.test(ch) && !CJK_UNIT.test(ch);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
