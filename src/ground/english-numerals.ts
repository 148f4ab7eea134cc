/**
 * English number words to numbers: "twelve", "twenty-five", "one hundred and five",
 * "two thousand three hundred", "a dozen". Only whole phrases of number words; ordinals
 * ("first") and fractions are not numbers here.
 */

const SMALL: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { dozen: 12, hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

const WORD = `(?:${[...Object.keys(SMALL), ...Object.keys(SCALES)].join("|")})`;
/** Maximal phrases of number words joined by spaces, hyphens or "and" (global, case-insensitive). */
export const ENGLISH_NUMBER_PHRASE = new RegExp(`\\b(?:a\\s+)?${WORD}(?:(?:\\s+and\\s+|[\\s-]+)${WORD})*\\b`, "gi");

export function parseEnglishNumber(phrase: string): number | undefined {
  const words = phrase.toLowerCase().split(/[\s-]+/).filter((w) => w !== "and");
  if (words[0] === "a") words[0] = "one";
  let total = 0;
  let current = 0;
  let seen = false;
  for (const w of words) {
    const small = SMALL[w];
    const scale = SCALES[w];
    if (small !== undefined) {
      current += small;
      seen = true;
    } else if (scale === undefined) return undefined;
    else if (w === "hundred" || w === "dozen") current = (current || 1) * scale;
    else {
      total += (current || 1) * scale;
      current = 0;
    }
  }
  return seen || total > 0 || current > 0 ? total + current : undefined;
}
