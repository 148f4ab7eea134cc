/**
 * Patterns valid in ECMAScript only without the u flag (Annex B), rewritten to the same pattern
 * in Unicode mode, which is how the grammar and the validator both read every pattern. JSON
 * Schema validators in other languages (Python's re, Rust's regex) accept these patterns, so a
 * schema written for them uses them: `\:`, `\_`, `\<` or `\-` outside a class escape a character
 * that needs no escape, `[\@]` inside one, and a `{`, `}` or `]` that opens or closes nothing is
 * the character itself. Those read the same in every dialect and are rewritten. What reads
 * differently somewhere is refused (PATTERN_UNSUPPORTED), never guessed: letter escapes Unicode
 * mode rejects (`\Z`, `\A`, `\z`, `\a` are anchors or a bell elsewhere), `{,n}` (a quantifier in
 * Python), `\u{...}` and `\p{...}` (letters without the u flag), and anything else Unicode mode
 * still rejects after the rewrite (a class escape as a range bound, a quantified look-ahead).
 */
import { PatternError } from "./pattern-error.js";

/** ECMAScript SyntaxCharacter and `/`: the characters Unicode mode allows escaped. */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");
const QUANTIFIER = /^\{\d+(?:,\d*)?\}/;

function compiles(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** `source` as a Unicode-mode pattern of the same meaning (itself when it already is one). */
export function unicodeModeSource(source: string): string {
  if (compiles(source, "u") === undefined) return source;
  const invalid = compiles(source, "");
  if (invalid !== undefined) throw new PatternError("PATTERN_INVALID", source, 0, `not a valid ECMAScript regex: ${invalid}`);
  const refuse = (at: number, detail: string): never => {
    throw new PatternError("PATTERN_UNSUPPORTED", source, at, `${detail} (the pattern is valid only without the u flag, and other regex dialects read it differently or reject it)`);
  };
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === "\\") {
      const next = String.fromCodePoint(source.codePointAt(i + 1)!);
      if (/[A-Za-z0-9]/.test(next)) {
        if (/[pP]/.test(next) || source.startsWith("u{", i + 1)) refuse(i, `\\${next} escape`);
        out += c + next; // same in both modes, or refused by the final check
      } else if (SYNTAX.has(next) || (inClass && next === "-")) out += c + next;
      else out += next; // an identity escape of a character that is never special
      i += 1 + next.length;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === "[") {
      // `[]` and `[^]` are whole classes (a `]` right after them is outside again).
      const empty = /^\[\^?\]/.exec(source.slice(i));
      inClass = empty === null;
      const opening = empty?.[0] ?? c;
      out += opening;
      i += opening.length;
      continue;
    }
    if (c === "{") {
      const quantifier = QUANTIFIER.exec(source.slice(i));
      if (quantifier !== null) {
        out += quantifier[0];
        i += quantifier[0].length;
        continue;
      }
      if (/^\{,\d*\}/.test(source.slice(i))) refuse(i, "'{,n}'");
    }
    out += c === "{" || c === "}" || c === "]" ? `\\${c}` : c;
    i++;
  }
  const stillInvalid = compiles(out, "u");
  if (stillInvalid !== undefined) refuse(0, `Unicode mode rejects it even with needless escapes removed: ${stillInvalid}`);
  return out;
}
