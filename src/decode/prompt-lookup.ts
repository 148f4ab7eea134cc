/**
 * Prompt lookup drafting: extraction output mostly copies the document, so the tokens that follow
 * the latest occurrence of the output's last few tokens in the prompt (or earlier in the output)
 * are a good guess of what comes next. Costs no model call; the guess is checked by the grammar
 * and then verified by the target model like any draft.
 */

/** Longest suffix of the context that is looked up (in tokens). */
export const MAX_NGRAM = 4;
/** Occurrences of the last token examined per lookup, latest first. */
const MAX_CANDIDATES = 64;

/** The tokens that followed a match of the context's end, and the match's length in tokens. */
export interface LookupMatch {
  readonly following: number[];
  readonly length: number;
}

export class PromptLookup {
  /** Prompt tokens, then output tokens as they are confirmed. */
  private readonly corpus: number[];
  /** Positions of each token in the corpus, in increasing order. */
  private readonly positions = new Map<number, number[]>();

  private readonly promptLength: number;

  constructor(promptIds: readonly number[]) {
    this.corpus = [];
    for (const id of promptIds) this.add(id);
    this.promptLength = promptIds.length;
  }

  /** Makes later lookups search the confirmed `output` too (it only ever grows). */
  catchUp(output: readonly number[]): void {
    for (let i = this.corpus.length - this.promptLength; i < output.length; i++) this.add(output[i]!);
  }

  private add(id: number): void {
    let list = this.positions.get(id);
    if (!list) this.positions.set(id, (list = []));
    list.push(this.corpus.length);
    this.corpus.push(id);
  }

  /**
   * Up to `limit` tokens that followed the best earlier match of the end of `context` (the output
   * so far plus tokens not yet confirmed, the corpus's own tail excluded): the longest match up to
   * MAX_NGRAM tokens, the latest on ties. Undefined when the last token never occurred before.
   */
  propose(context: readonly number[], limit: number): LookupMatch | undefined {
    if (context.length === 0 || limit <= 0) return undefined;
    const last = context[context.length - 1]!;
    const list = this.positions.get(last);
    if (!list) return undefined;
    let bestAt = -1;
    let bestLength = 0;
    for (let c = list.length - 1, seen = 0; c >= 0 && seen < MAX_CANDIDATES; c--, seen++) {
      const at = list[c]!;
      // A match must leave at least one following token.
      if (at + 1 >= this.corpus.length) continue;
      let length = 1;
      while (length < MAX_NGRAM && length < context.length && at - length >= 0 && this.corpus[at - length] === context[context.length - 1 - length]) length++;
      if (length > bestLength) {
        bestLength = length;
        bestAt = at;
        if (length === MAX_NGRAM) break;
      }
    }
    if (bestAt < 0) return undefined;
    return { following: this.corpus.slice(bestAt + 1, Math.min(this.corpus.length, bestAt + 1 + limit)), length: bestLength };
  }
}
