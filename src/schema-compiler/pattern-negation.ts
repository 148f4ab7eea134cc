/**
 * `not: {pattern: P}` as a positive pattern. With C one character class (`[...]`, `[^...]`, `\d`
 * `\w` `\s` and their capitals, or one literal character) and C' its complement, a pattern
 * without look-arounds (which every grammar backend reads exactly, llama.cpp's GBNF included):
 *   C anywhere  (`C`, `(C)`)  ->  no character in C:         `^C'*$`
 *   `^C*$`                    ->  some character outside C:  `C'`
 *   `^C+$`                    ->  empty, or as above:        `^$|C'`
 * Any other supported P: `^(?![^]*(?:P))`, "no position where P matches" (a look-ahead at the
 * start, which the automaton builder subtracts: regex/compile.ts). Undefined when P has no
 * supported form (its own look-arounds, back-references, ...).
 */
import { PatternError, patternLanguage, unicodeModeSource } from "../regex/index.js";

/** A class's complement, by its source text; undefined when it is not one character class. */
function complementClass(c: string): string | undefined {
  const escapes: Record<string, string> = { "\\d": "\\D", "\\D": "\\d", "\\w": "\\W", "\\W": "\\w", "\\s": "\\S", "\\S": "\\s" };
  if (c in escapes) return escapes[c];
  // A bracket class with no nested brackets (a `]` inside must be escaped, so no unescaped one before the end).
  const bracket = /^\[(\^?)((?:\\.|[^\\\][])*)\]$/su.exec(c);
  if (bracket !== null) return bracket[1] === "^" ? `[${bracket[2]}]` : `[^${bracket[2]}]`;
  // One literal character: an escaped metacharacter, or a character that is not one.
  if (/^\\[$^\\.*+?()[\]{}|/-]$/u.test(c)) return `[^${c}]`;
  if (/^[^$^\\.*+?()[\]{}|]$/u.test(c)) return `[^${c === "-" ? "\\-" : c}]`;
  return undefined;
}

/** The pattern matching exactly the strings `written` does not match (read in Unicode mode). */
export function complementPattern(written: string): string | undefined {
  let source: string;
  try {
    source = unicodeModeSource(written);
  } catch {
    return undefined;
  }
  return complementOfClassPattern(source) ?? complementByLookAhead(source);
}

function complementOfClassPattern(source: string): string | undefined {
  const anchored = /^\^(.+)([*+])\$$/su.exec(source);
  if (anchored !== null) {
    const complement = complementClass(anchored[1]!);
    if (complement === undefined) return undefined;
    return anchored[2] === "*" ? complement : `^$|${complement}`;
  }
  const grouped = /^\((?:\?:)?(.+)\)$/su.exec(source);
  const complement = complementClass(grouped === null ? source : grouped[1]!);
  return complement === undefined ? undefined : `^${complement}*$`;
}

function complementByLookAhead(source: string): string | undefined {
  const complement = `^(?![^]*(?:${source}))`;
  try {
    patternLanguage(complement);
    return complement;
  } catch (err) {
    if (err instanceof PatternError) return undefined;
    throw err;
  }
}
