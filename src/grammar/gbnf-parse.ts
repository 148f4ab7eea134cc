/**
 * Parses our GBNF dialect (see gbnf-print.ts) back into the grammar IR. It reads what the printer
 * writes and what llama.cpp grammars usually contain: `name ::= body` rules (bodies may span lines),
 * literals with \n \r \t \\ \" \xHH \uHHHH \UHHHHHHHH escapes, classes `[...]` / `[^...]`
 * (a negated class is its complement over all Unicode scalar values, surrogates excluded),
 * groups, `|`, `?` `*` `+` `{m}` `{m,}` `{m,n}`, `#` comments, and the `%json-string(...)`
 * extension. The start rule is `root` (or the first rule when there is no `root`).
 * Errors are GRAMMAR_SYNTAX with a line number.
 */

import { PocketExtractError } from "../errors.js";
import { alt, chars, empty, jsonString, lit, ref, repeat, seq, type Expr, type Grammar } from "./ir.js";

type Range = readonly [number, number];

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new PocketExtractError("GRAMMAR_SYNTAX", `GBNF line ${line}: ${message}`);
  }

  /** Skips spaces, comments and (when `newlines`) line breaks. */
  skip(newlines: boolean): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === " " || c === "\t" || ((c === "\n" || c === "\r") && newlines)) this.pos++;
      else if (c === "#") while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos++;
      else return;
    }
  }

  peek(): string | undefined {
    return this.text[this.pos];
  }

  expect(s: string): void {
    if (!this.text.startsWith(s, this.pos)) this.fail(`expected "${s}"`);
    this.pos += s.length;
  }

  name(): string {
    const m = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 256));
    if (!m) this.fail("expected a rule name");
    this.pos += m[0].length;
    return m[0];
  }

  /** True when a `name ::=` definition starts at the current position (after line breaks). */
  atRuleStart(): boolean {
    return /^[A-Za-z0-9_-]+[ \t]*::=/.test(this.text.slice(this.pos, this.pos + 300));
  }

  int(): number {
    const m = /^\d+/.exec(this.text.slice(this.pos, this.pos + 20));
    if (!m) this.fail("expected a number");
    this.pos += m[0].length;
    return Number(m[0]);
  }

  /** One possibly escaped code point inside a literal or class. */
  codePoint(): number {
    const c = this.text.codePointAt(this.pos);
    if (c === undefined) this.fail("unexpected end of text");
    if (c !== 0x5c) {
      this.pos += c > 0xffff ? 2 : 1;
      return c;
    }
    const e = this.text[this.pos + 1];
    this.pos += 2;
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, "\\": 0x5c, '"': 0x22, "[": 0x5b, "]": 0x5d, "-": 0x2d, "^": 0x5e, "/": 0x2f };
    const code = e === undefined ? undefined : simple[e];
    if (code !== undefined) return code;
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width === 0) this.fail(`unknown escape \\${e ?? ""}`);
    const digits = this.text.slice(this.pos, this.pos + width);
    if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== width) this.fail("bad hex escape");
    this.pos += width;
    return parseInt(digits, 16);
  }

  literal(): string {
    this.expect('"');
    let out = "";
    while (this.peek() !== '"') {
      if (this.pos >= this.text.length) this.fail("unterminated literal");
      out += String.fromCodePoint(this.codePoint());
    }
    this.pos++;
    return out;
  }
}

const MAX_CP = 0x10ffff;

function normalize(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** Complement over Unicode scalar values (surrogates are never valid characters). */
export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize([...ranges, [0xd800, 0xdfff]])) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CP) out.push([next, MAX_CP]);
  return out;
}

function parseClass(r: Reader): Expr {
  r.expect("[");
  const negate = r.peek() === "^";
  if (negate) r.pos++;
  const ranges: Range[] = [];
  while (r.peek() !== "]") {
    if (r.pos >= r.text.length) r.fail("unterminated character class");
    const lo = r.codePoint();
    let hi = lo;
    if (r.peek() === "-" && r.text[r.pos + 1] !== "]") {
      r.pos++;
      hi = r.codePoint();
    }
    if (hi < lo) r.fail("reversed range in character class");
    ranges.push([lo, hi]);
  }
  r.pos++;
  return chars(...(negate ? complement(ranges) : normalize(ranges)));
}

function parseJsonString(r: Reader): Expr {
  r.expect("%json-string(");
  const opts: { minLength?: number; maxLength?: number; pattern?: string; exclude?: string[]; excludePatterns?: string[]; substringOf?: string } = {};
  const list = (): string[] => {
    r.expect("[");
    const items: string[] = [];
    r.skip(true);
    while (r.peek() !== "]") {
      items.push(r.literal());
      r.skip(true);
      if (r.peek() === ",") r.pos++;
      r.skip(true);
    }
    r.pos++;
    return items;
  };
  r.skip(true);
  while (r.peek() !== ")") {
    const key = r.name();
    r.skip(true);
    r.expect("=");
    r.skip(true);
    if (key === "min") opts.minLength = r.int();
    else if (key === "max") {
      if (r.text.startsWith("inf", r.pos)) {
        r.pos += 3;
        opts.maxLength = Infinity;
      } else opts.maxLength = r.int();
    } else if (key === "pattern") opts.pattern = r.literal();
    else if (key === "exclude") opts.exclude = list();
    else if (key === "exclude-patterns") opts.excludePatterns = list();
    else if (key === "substring-of") opts.substringOf = r.literal();
    else r.fail(`unknown %json-string argument "${key}"`);
    r.skip(true);
    if (r.peek() === ",") r.pos++;
    r.skip(true);
  }
  r.pos++;
  return jsonString(opts);
}

function parseAlternatives(r: Reader, nested: boolean): Expr {
  const branches: Expr[] = [parseSequence(r, nested)];
  while (r.peek() === "|") {
    r.pos++;
    branches.push(parseSequence(r, nested));
  }
  return branches.length === 1 ? branches[0]! : alt(...branches);
}

function parseSequence(r: Reader, nested: boolean): Expr {
  const items: Expr[] = [];
  for (;;) {
    r.skip(nested);
    // Outside parentheses a line break ends the rule unless the next line continues it
    // (starts with `|` or is not a new `name ::=` definition).
    if (!nested && (r.peek() === "\n" || r.peek() === "\r")) {
      const save = r.pos;
      r.skip(true);
      if (r.pos >= r.text.length || r.atRuleStart()) {
        r.pos = save;
        break;
      }
      continue;
    }
    const c = r.peek();
    if (c === undefined || c === "|" || c === ")") break;
    let atom: Expr;
    if (c === '"') atom = lit(r.literal());
    else if (c === "[") atom = parseClass(r);
    else if (c === "(") {
      r.pos++;
      atom = parseAlternatives(r, true);
      r.skip(true);
      r.expect(")");
    } else if (c === "%") atom = parseJsonString(r);
    else if (/[A-Za-z0-9_-]/.test(c)) {
      if (r.atRuleStart()) break;
      atom = ref(r.name());
    } else r.fail(`unexpected character "${c}"`);
    items.push(parseSuffixes(r, atom));
  }
  return items.length === 1 ? items[0]! : items.length === 0 ? empty() : seq(...items);
}

function parseSuffixes(r: Reader, atom: Expr): Expr {
  for (;;) {
    const c = r.peek();
    if (c === "?") atom = repeat(atom, 0, 1);
    else if (c === "*") atom = repeat(atom, 0, Infinity);
    else if (c === "+") atom = repeat(atom, 1, Infinity);
    else if (c === "{") {
      r.pos++;
      const min = r.int();
      let max = min;
      if (r.peek() === ",") {
        r.pos++;
        max = r.peek() === "}" ? Infinity : r.int();
      }
      r.expect("}");
      if (max < min) r.fail("repetition maximum below minimum");
      atom = repeat(atom, min, max);
      continue;
    } else return atom;
    r.pos++;
  }
}

/** Parses GBNF text (llama.cpp's dialect plus pocket-extract's `%json-string`) into the grammar IR. */
export function parseGbnf(text: string): Grammar {
  const r = new Reader(text);
  const rules = new Map<string, Expr>();
  for (;;) {
    r.skip(true);
    if (r.pos >= text.length) break;
    const name = r.name();
    r.skip(false);
    r.expect("::=");
    if (rules.has(name)) r.fail(`rule "${name}" defined twice`);
    rules.set(name, parseAlternatives(r, false));
    r.skip(false);
    if (r.pos < text.length && r.peek() !== "\n" && r.peek() !== "\r") r.fail(`unexpected "${r.peek()}"`);
  }
  if (rules.size === 0) throw new PocketExtractError("GRAMMAR_SYNTAX", "GBNF text defines no rules");
  for (const body of rules.values()) checkRefs(body, rules);
  return { start: rules.has("root") ? "root" : rules.keys().next().value!, rules };
}

function checkRefs(e: Expr, rules: ReadonlyMap<string, Expr>): void {
  if (e.kind === "ref" && !rules.has(e.name)) {
    throw new PocketExtractError("GRAMMAR_SYNTAX", `reference to undefined rule "${e.name}"`);
  }
  if (e.kind === "seq" || e.kind === "alt") for (const i of e.items) checkRefs(i, rules);
  if (e.kind === "repeat") checkRefs(e.item, rules);
}
