/**
 * JSON as Python sees it, for MaskBench: a parser that keeps every number's lexeme (JSON.parse
 * would turn `1.0` into `1` and round big integers) and a serializer reproducing
 * `json.dumps(data, ensure_ascii=False)` on what Python's `json.loads` would have built:
 * integers print exactly as big ints, floats as `repr(float)` (`1.0`, `1e-05`, `1e+16`), objects
 * keep first-insertion key order with the last duplicate's value, non-ASCII stays raw and only
 * `"`, `\` and control characters are escaped. Separators default to Python's `", "` / `": "`.
 */

/** A JSON number, kept as written. */
export class JsonNumber {
  constructor(readonly lexeme: string) {}
}

export type LexJson = null | boolean | string | JsonNumber | LexJson[] | LexObject;
export type LexObject = Map<string, LexJson>;

export interface Separators {
  readonly item: string;
  readonly key: string;
}

export const PYTHON_SEPARATORS: Separators = { item: ", ", key: ": " };
export const COMPACT_SEPARATORS: Separators = { item: ",", key: ":" };

/** Parses JSON text (plus Python's NaN / Infinity / -Infinity), keeping number lexemes. */
export function parseJsonKeepingNumbers(text: string): LexJson {
  const parser = new Parser(text);
  const value = parser.value();
  parser.end();
  return value;
}

/** `json.dumps(value, ensure_ascii=False, separators=...)` as Python prints it. */
export function pythonJsonDumps(value: LexJson, separators: Separators = PYTHON_SEPARATORS): string {
  const out: string[] = [];
  write(value, separators, out);
  return out.join("");
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const exponential = Math.abs(x).toExponential(); // always "<mantissa>e<exponent>"
  const split = exponential.indexOf("e");
  const mantissa = exponential.slice(0, split);
  const exponent = exponential.slice(split + 1);
  const digits = mantissa.replace(".", "");
  const point = Number(exponent) + 1; // value = 0.<digits> * 10^point
  if (point <= -4 || point > 16) {
    const e = point - 1;
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${head}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}.0`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** How Python re-prints a number lexeme after `json.loads`: ints exactly, floats by `repr`. */
export function pythonNumber(lexeme: string): string {
  if (/^-?\d+$/.test(lexeme)) return BigInt(lexeme).toString();
  return pythonFloatRepr(Number(lexeme));
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function pythonString(s: string): string {
  // eslint-disable-next-line no-control-regex -- JSON escapes exactly the control characters U+0000-U+001F
  return `"${s.replace(/[\u0000-\u001f"\\]/g, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function write(value: LexJson, sep: Separators, out: string[]): void {
  if (value === null) out.push("null");
  else if (value === true) out.push("true");
  else if (value === false) out.push("false");
  else if (typeof value === "string") out.push(pythonString(value));
  else if (value instanceof JsonNumber) out.push(pythonNumber(value.lexeme));
  else if (Array.isArray(value)) {
    out.push("[");
    value.forEach((item, i) => {
      if (i > 0) out.push(sep.item);
      write(item, sep, out);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const [key, item] of value) {
      if (!first) out.push(sep.item);
      first = false;
      out.push(pythonString(key), sep.key);
      write(item, sep, out);
    }
    out.push("}");
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const PLAIN_CHARS = /[^"\\]*/y;
const LITERALS: ReadonlyArray<readonly [string, LexJson]> = [
  ["true", true],
  ["false", false],
  ["null", null],
  ["NaN", new JsonNumber("NaN")],
  ["Infinity", new JsonNumber("Infinity")],
  ["-Infinity", new JsonNumber("-Infinity")],
];
const ESCAPED: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  value(): LexJson {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail("a value");
    this.at += match[0].length;
    return new JsonNumber(match[0]);
  }

  end(): void {
    this.skipSpace();
    if (this.at !== this.text.length) this.fail("end of input");
  }

  private object(): LexObject {
    const map: LexObject = new Map();
    this.at++;
    if (this.peekAfterSpace() === "}") {
      this.at++;
      return map;
    }
    for (;;) {
      if (this.peekAfterSpace() !== '"') this.fail("a key");
      const key = this.string();
      this.expect(":");
      map.set(key, this.value());
      const c = this.peekAfterSpace();
      this.at++;
      if (c === "}") return map;
      if (c !== ",") this.fail("',' or '}'", this.at - 1);
    }
  }

  private array(): LexJson[] {
    const items: LexJson[] = [];
    this.at++;
    if (this.peekAfterSpace() === "]") {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      const c = this.peekAfterSpace();
      this.at++;
      if (c === "]") return items;
      if (c !== ",") this.fail("',' or ']'", this.at - 1);
    }
  }

  private string(): string {
    this.at++;
    let result = "";
    for (;;) {
      PLAIN_CHARS.lastIndex = this.at;
      const run = PLAIN_CHARS.exec(this.text)![0];
      result += run;
      this.at += run.length;
      const c = this.text[this.at++];
      if (c === '"') return result;
      if (c !== "\\") this.fail("a closing quote", this.at - 1);
      const e = this.text[this.at++];
      if (e === "u") {
        const hex = this.text.slice(this.at, this.at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("4 hex digits");
        result += String.fromCharCode(parseInt(hex, 16));
        this.at += 4;
        continue;
      }
      const escaped = e === undefined ? undefined : ESCAPED[e];
      if (escaped === undefined) this.fail("an escape", this.at - 1);
      result += escaped;
    }
  }

  private expect(c: string): void {
    if (this.peekAfterSpace() !== c) this.fail(`'${c}'`);
    this.at++;
  }

  private peekAfterSpace(): string | undefined {
    this.skipSpace();
    return this.text[this.at];
  }

  private skipSpace(): void {
    WHITESPACE.lastIndex = this.at;
    this.at += WHITESPACE.exec(this.text)![0].length;
  }

  private fail(expected: string, at = this.at): never {
    throw new SyntaxError(`JSON: expected ${expected} at offset ${at}`);
  }
}
