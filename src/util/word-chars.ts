/**
 * Which characters form words in Latin script: ASCII letters and digits and their full-width
 * forms. A verbatim value may not begin or end inside such a word (the grammar, automaton/), and
 * grounding does not match a value there (ground/): one definition keeps the two in agreement.
 * Every other character (CJK, punctuation, spaces) is a word on its own.
 */
export function isWordCodePoint(cp: number): boolean {
  const a = cp >= 0xff01 && cp <= 0xff5e ? cp - 0xfee0 : cp;
  return (a >= 48 && a <= 57) || (a >= 65 && a <= 90) || (a >= 97 && a <= 122);
}
