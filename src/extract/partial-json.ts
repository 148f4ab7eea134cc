/**
 * Parses a prefix of a JSON document (what has been generated so far) into the value it denotes
 * so far: containers that are still open appear with the members completed so far; a key, number
 * or literal that is still being written is left out. A string still being written is left out
 * too, or, for streaming (`growingStrings`), shown as far as it is written. The grammar guarantees
 * the prefix is a prefix of valid JSON, so this parser only handles that case.
 */
import type { JsonPath } from "../util/index.js";

/** The value a prefix denotes so far, and where it is still being written. */
export interface JsonPrefix {
  /** The value so far; undefined before its first part is complete enough to show. */
  readonly value: unknown;
  /** Path of the innermost value still being written (its containers are open too); undefined
   *  once the document is complete. */
  readonly open: JsonPath | undefined;
  /** The open value is a string shown as far as it is written (`growingStrings` only). */
  readonly openString: boolean;
}

/** The value a prefix denotes so far, with only complete scalars (budget-aware completion's view). */
export function parsePartialJson(text: string): unknown {
  return parseJsonPrefix(text).value;
}

/** The value a prefix denotes so far and its open path; `growingStrings` shows the string still
 *  being written as far as it is (an escape cut short is left out until complete). */
export function parseJsonPrefix(text: string, options: { readonly growingStrings?: boolean } = {}): JsonPrefix {
  const parser = new PrefixParser(text, options.growingStrings ?? false);
  const value = parser.value([]);
  return { value, open: parser.open, openString: parser.openString };
}

class PrefixParser {
  private at = 0;
  open: JsonPath | undefined;
  openString = false;

  constructor(
    private readonly text: string,
    private readonly growingStrings: boolean,
  ) {}

  /** The value starting here, or undefined when it is not complete enough to show. */
  value(path: JsonPath): unknown {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === "{") return this.object(path);
    if (c === "[") return this.array(path);
    if (c === '"') return this.string(path);
    return this.scalar(path);
  }

  private object(path: JsonPath): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.atEnd(path)) return out;
      if (this.text[this.at] === "}") {
        this.at++;
        return out;
      }
      if (this.text[this.at] === ",") this.at++;
      this.skipSpace();
      const key = this.completeString();
      this.skipSpace();
      if (key === undefined || this.atEnd(path)) {
        this.reachedEnd(path);
        return out;
      }
      this.at++; // ":"
      const v = this.value([...path, key]);
      // An own data property even for "__proto__" (plain assignment would set the prototype).
      if (v !== undefined) Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      if (this.open) return out;
    }
  }

  private array(path: JsonPath): unknown[] {
    const out: unknown[] = [];
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.atEnd(path)) return out;
      if (this.text[this.at] === "]") {
        this.at++;
        return out;
      }
      if (this.text[this.at] === ",") this.at++;
      const v = this.value([...path, out.length]);
      if (v !== undefined) out.push(v);
      if (this.open) return out;
    }
  }

  private string(path: JsonPath): string | undefined {
    const done = this.completeString();
    if (done !== undefined) return done;
    this.reachedEnd(path);
    if (!this.growingStrings) {
      this.at = this.text.length;
      return undefined;
    }
    this.openString = true;
    const body = this.text.slice(this.at + 1);
    this.at = this.text.length;
    return writtenSoFar(body);
  }

  /** A string that is closed in the prefix (the position moves past it), else undefined (the
   *  position stays at its opening quote). */
  private completeString(): string | undefined {
    const start = this.at;
    if (this.text[start] !== '"') return undefined;
    let i = start + 1;
    while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === "\\" ? 2 : 1;
    if (i >= this.text.length) return undefined;
    this.at = i + 1;
    return JSON.parse(this.text.slice(start, i + 1)) as string;
  }

  /** A number or literal; undefined while it runs to the end of the prefix ("1" -> "12"). */
  private scalar(path: JsonPath): unknown {
    const start = this.at;
    let i = start;
    while (i < this.text.length && /[^,\]}\s]/.test(this.text.charAt(i))) i++;
    this.at = i;
    if (i >= this.text.length) {
      this.reachedEnd(path);
      return undefined;
    }
    return JSON.parse(this.text.slice(start, i)) as unknown;
  }

  /** True (and `path` marked open) when the prefix ends here. */
  private atEnd(path: JsonPath): boolean {
    if (this.at < this.text.length) return false;
    this.reachedEnd(path);
    return true;
  }

  /** The deepest value the prefix ends in is the first one to get here. */
  private reachedEnd(path: JsonPath): void {
    this.open ??= path;
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text.charAt(this.at))) this.at++;
  }
}

/** The characters of an unterminated JSON string body, without an escape that is cut short (a
 *  lone `\`, an incomplete `\u` or the first half of a surrogate pair). */
function writtenSoFar(body: string): string {
  let end = 0;
  while (end < body.length) {
    if (body[end] !== "\\") end++;
    else if (end + 1 >= body.length || (body[end + 1] === "u" && end + 6 > body.length)) break;
    else end += body[end + 1] === "u" ? 6 : 2;
  }
  const s = JSON.parse(`"${body.slice(0, end)}"`) as string;
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? s.slice(0, -1) : s;
}
