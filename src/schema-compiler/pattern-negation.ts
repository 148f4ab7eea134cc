/**
 * `not: {pattern: P}` for the pattern shapes whose complement is again a regex without
 * look-arounds (the byte automaton has no complement): with C one character class (`[...]`,
 * `[^...]`, `\d` `\w` `\s` and their capitals, or one literal character) and C' its complement,
 *   C anywhere  (`C`, `(C)`)  ->  no character in C:         `^C'*$`
 *   `^C*$`                    ->  some character outside C:  `C'`
 *   `^C+$`                    ->  empty, or as above:        `^$|C'`
 * Other patterns have no form here (undefined).
 */
import { unicodeModeSource } from "../regex/index.js";

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

/** The pattern matching exactly the strings `written` does not match, for the shapes above
 *  (read in Unicode mode; none for a pattern that has no Unicode-mode form: the compiler refuses those). */
export function complementPattern(written: string): string | undefined {
  let source: string;
  try {
    source = unicodeModeSource(written);
  } catch {
    return undefined;
  }
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
