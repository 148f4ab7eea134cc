/**
 * Parser for the supported subset of ECMAScript regular expressions (as JSON Schema `pattern`
 * uses them, read with the `u` flag's code point semantics, plus Annex B leniency for literal
 * `{`, `}`, `]` and escaped punctuation). Produces a small AST of code point sets, sequences,
 * alternatives, repeats, anchors and look-arounds (where those may stand is compile.ts's
 * business). Captures are irrelevant for matching and are dropped.
 * Rejects, with the construct and position: back-references, \b and \B, inline
 * modifiers, and unknown letter escapes (e.g. PCRE's \A \z, which would otherwise silently
 * mean a letter).
 */
import { DIGIT, DOT, negate, propertyRanges, SPACE, union, WORD, type Ranges } from "./charset.js";
import { PatternError } from "./pattern-error.js";

export type RegexNode =
  | { readonly type: "set"; readonly ranges: Ranges }
  | { readonly type: "seq"; readonly items: readonly RegexNode[] }
  | { readonly type: "alt"; readonly items: readonly RegexNode[] }
  | { readonly type: "repeat"; readonly item: RegexNode; readonly min: number; readonly max: number }
  | { readonly type: "anchor"; readonly at: "start" | "end"; readonly position: number }
  /** A look-around: `ahead` for `(?=` `(?!`, `negated` for `(?!` `(?<!`. Zero-width. */
  | { readonly type: "look"; readonly ahead: boolean; readonly negated: boolean; readonly body: RegexNode; readonly position: number };

/** Largest repeat bound accepted; larger bounds could never fit the automaton limits anyway. */
const MAX_BOUND = 100_000;

export function parseRegex(source: string): RegexNode {
  return new Parser(source).parse();
}

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

class Parser {
  private i = 0;

  constructor(private readonly src: string) {}

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.i < this.src.length) this.fail("PATTERN_INVALID", "unmatched ')'");
    return node;
  }

  private fail(code: "PATTERN_INVALID" | "PATTERN_UNSUPPORTED", detail: string, at = this.i): never {
    throw new PatternError(code, this.src, at, detail);
  }

  private peek(offset = 0): string {
    return this.src[this.i + offset] ?? "";
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  /** Reads one code point (astral characters are one unit under the u flag). */
  private codePoint(): number {
    const cp = this.src.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private disjunction(): RegexNode {
    const items = [this.alternative()];
    while (this.peek() === "|") {
      this.i++;
      items.push(this.alternative());
    }
    return items.length === 1 ? items[0]! : { type: "alt", items };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.i < this.src.length && this.peek() !== "|" && this.peek() !== ")") {
      const at = this.i;
      const atom = this.atom();
      const q = this.quantifier();
      if (q === null) {
        items.push(atom);
      } else {
        // A bare assertion (not one inside a group, which may be repeated) takes no quantifier.
        if ((atom.type === "anchor" || atom.type === "look") && atom.position === at) this.fail("PATTERN_INVALID", `quantified ${atom.type === "anchor" ? "anchor" : "look-around"}`, at);
        items.push({ type: "repeat", item: atom, min: q[0], max: q[1] });
      }
    }
    return items.length === 1 ? items[0]! : { type: "seq", items };
  }

  private atom(): RegexNode {
    const at = this.i;
    const ch = this.peek();
    switch (ch) {
      case "^":
        this.i++;
        return { type: "anchor", at: "start", position: at };
      case "$":
        this.i++;
        return { type: "anchor", at: "end", position: at };
      case ".":
        this.i++;
        return { type: "set", ranges: DOT };
      case "[":
        return { type: "set", ranges: this.charClass() };
      case "(":
        return this.group();
      case "*":
      case "+":
      case "?":
        return this.fail("PATTERN_INVALID", `nothing to repeat before '${ch}'`);
      case "{":
        if (this.tryBraces() !== null) this.fail("PATTERN_INVALID", "nothing to repeat before '{'");
        this.i++;
        return { type: "set", ranges: [[0x7b, 0x7b]] };
      case "\\":
        return { type: "set", ranges: this.escape(false) };
      default: {
        const cp = this.codePoint();
        return { type: "set", ranges: [[cp, cp]] };
      }
    }
  }

  private group(): RegexNode {
    const at = this.i;
    this.i++; // (
    const look = /^\?(<?)([=!])/.exec(this.src.slice(this.i, this.i + 3));
    if (look !== null) {
      this.i += look[0].length;
    } else if (this.startsWith("?:")) {
      this.i += 2;
    } else if (this.startsWith("?<")) {
      const close = this.src.indexOf(">", this.i);
      const name = close < 0 ? "" : this.src.slice(this.i + 2, close);
      if (!/^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name)) this.fail("PATTERN_INVALID", "invalid group name", at);
      this.i = close + 1;
    } else if (this.peek() === "?") {
      this.fail("PATTERN_UNSUPPORTED", "inline modifier group", at);
    }
    const inner = this.disjunction();
    if (this.peek() !== ")") this.fail("PATTERN_INVALID", "unterminated group", at);
    this.i++;
    if (look === null) return inner;
    return { type: "look", ahead: look[1] === "", negated: look[2] === "!", body: inner, position: at };
  }

  /** Parses `{n}`, `{n,}` or `{n,m}` at the cursor without consuming it; null if not one. */
  private tryBraces(): { min: number; max: number; length: number } | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i, this.i + 40));
    if (m === null) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    return { min, max, length: m[0].length };
  }

  private quantifier(): [number, number] | null {
    const at = this.i;
    let bounds: [number, number];
    const ch = this.peek();
    if (ch === "*") ((bounds = [0, Infinity]), this.i++);
    else if (ch === "+") ((bounds = [1, Infinity]), this.i++);
    else if (ch === "?") ((bounds = [0, 1]), this.i++);
    else {
      const b = this.tryBraces();
      if (b === null) return null;
      if (b.max < b.min) this.fail("PATTERN_INVALID", "numbers out of order in {} quantifier", at);
      if (b.min > MAX_BOUND || (b.max !== Infinity && b.max > MAX_BOUND)) {
        this.fail("PATTERN_UNSUPPORTED", `repeat bound above ${MAX_BOUND}`, at);
      }
      bounds = [b.min, b.max];
      this.i += b.length;
    }
    if (this.peek() === "?") this.i++; // lazy: same language
    const next = this.peek();
    if ((next !== "" && "*+?".includes(next)) || this.tryBraces() !== null) {
      this.fail("PATTERN_INVALID", "nothing to repeat", this.i);
    }
    return bounds;
  }

  private charClass(): Ranges {
    const at = this.i;
    this.i++; // [
    const negated = this.peek() === "^";
    if (negated) this.i++;
    const parts: Ranges[] = [];
    while (this.peek() !== "]") {
      if (this.i >= this.src.length) this.fail("PATTERN_INVALID", "unterminated character class", at);
      const lo = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== "") {
        this.i++;
        const rangeAt = this.i;
        const hi = this.classAtom();
        const from = singleCodePoint(lo);
        const to = singleCodePoint(hi);
        if (from !== undefined && to !== undefined) {
          if (to < from) this.fail("PATTERN_INVALID", "range out of order in character class", rangeAt);
          parts.push([[from, to]]);
        } else {
          this.fail("PATTERN_INVALID", "character class escape used as a range bound", rangeAt);
        }
      } else {
        parts.push(lo);
      }
    }
    this.i++; // ]
    const set = union(...parts);
    return negated ? negate(set) : set;
  }

  private classAtom(): Ranges {
    if (this.peek() === "\\") return this.escape(true);
    const cp = this.codePoint();
    return [[cp, cp]];
  }

  /** An escape sequence (cursor on the backslash): a set of code points. */
  private escape(inClass: boolean): Ranges {
    const at = this.i;
    this.i++;
    const ch = this.peek();
    if (ch === "") this.fail("PATTERN_INVALID", "\\ at end of pattern", at);
    this.i++;
    const single = (cp: number): Ranges => [[cp, cp]];
    switch (ch) {
      case "d":
        return DIGIT;
      case "D":
        return negate(DIGIT);
      case "w":
        return WORD;
      case "W":
        return negate(WORD);
      case "s":
        return SPACE;
      case "S":
        return negate(SPACE);
      case "b":
        if (inClass) return single(8);
        return this.fail("PATTERN_UNSUPPORTED", "word boundary assertion \\b", at);
      case "B":
        return this.fail("PATTERN_UNSUPPORTED", "non-word-boundary assertion \\B", at);
      case "k":
        return this.fail("PATTERN_UNSUPPORTED", "named back-reference \\k", at);
      case "0":
        if (/[0-9]/.test(this.peek())) this.fail("PATTERN_UNSUPPORTED", "octal escape", at);
        return single(0);
      case "c": {
        const letter = this.peek();
        if (!/[A-Za-z]/.test(letter)) this.fail("PATTERN_INVALID", "invalid \\c escape", at);
        this.i++;
        return single(letter.charCodeAt(0) % 32);
      }
      case "x": {
        const hex = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i, this.i + 2));
        if (hex === null) this.fail("PATTERN_INVALID", "invalid \\x escape", at);
        this.i += 2;
        return single(parseInt(hex[0], 16));
      }
      case "u":
        return single(this.unicodeEscape(at));
      case "p":
      case "P": {
        const m = /^\{([A-Za-z0-9_=]+)\}/.exec(this.src.slice(this.i, this.i + 80));
        if (m === null) this.fail("PATTERN_INVALID", `invalid \\${ch} escape`, at);
        const ranges = propertyRanges(m[1]!);
        if (ranges === null) this.fail("PATTERN_UNSUPPORTED", `unicode property \\${ch}{${m[1]}}`, at);
        this.i += m[0].length;
        return ch === "p" ? ranges : negate(ranges);
      }
      default: {
        const control = CONTROL_ESCAPES[ch];
        if (control !== undefined) return single(control);
        if (/[1-9]/.test(ch)) return this.fail("PATTERN_UNSUPPORTED", `back-reference \\${ch}`, at);
        if (/[A-Za-z0-9]/.test(ch)) return this.fail("PATTERN_UNSUPPORTED", `unknown escape \\${ch}`, at);
        this.i--;
        return single(this.codePoint());
      }
    }
  }

  /** \uXXXX (with surrogate pairs joined) or \u{X...}; cursor after the `u`. */
  private unicodeEscape(at: number): number {
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(this.src.slice(this.i, this.i + 9));
    if (braced !== null) {
      const cp = parseInt(braced[1]!, 16);
      if (cp > 0x10ffff) this.fail("PATTERN_INVALID", "code point out of range", at);
      this.i += braced[0].length;
      return cp;
    }
    const hex = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i, this.i + 4));
    if (hex === null) this.fail("PATTERN_INVALID", "invalid \\u escape", at);
    this.i += 4;
    const unit = parseInt(hex[0], 16);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(this.src.slice(this.i, this.i + 6));
      if (low !== null) {
        this.i += 6;
        return 0x10000 + ((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
      }
    }
    return unit;
  }
}

/** The one code point `r` stands for, or undefined when it is empty, several or a range. */
function singleCodePoint(r: Ranges): number | undefined {
  const [only, ...rest] = r;
  return only !== undefined && rest.length === 0 && only[0] === only[1] ? only[0] : undefined;
}
