/**
 * Parses a prefix of a JSON document (what has been generated so far) into the value it denotes
 * so far: containers that are still open appear with the members completed so far; a scalar or
 * key that is still being written is left out. Used for streaming partial results; the grammar
 * guarantees the prefix is a prefix of valid JSON, so this parser only handles that case.
 */
export function parsePartialJson(text: string): unknown {
  const parser = new PrefixParser(text);
  return parser.value();
}

class PrefixParser {
  private at = 0;

  constructor(private readonly text: string) {}

  /** The value starting here, or undefined when it is not complete enough to show. */
  value(): unknown {
    this.skipSpace();
    const c = this.text[this.at];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    return this.scalar();
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.at >= this.text.length || this.text[this.at] === "}") {
        this.at++;
        return out;
      }
      if (this.text[this.at] === ",") this.at++;
      this.skipSpace();
      const key = this.scalar();
      if (typeof key !== "string") return out;
      this.skipSpace();
      if (this.text[this.at] !== ":") return out;
      this.at++;
      const v = this.value();
      if (v === undefined) return out;
      out[key] = v;
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.at++;
    for (;;) {
      this.skipSpace();
      if (this.at >= this.text.length || this.text[this.at] === "]") {
        this.at++;
        return out;
      }
      if (this.text[this.at] === ",") this.at++;
      const v = this.value();
      if (v === undefined) return out;
      out.push(v);
    }
  }

  /** A complete string, number or literal; undefined if it runs to the end of the prefix. */
  private scalar(): unknown {
    const start = this.at;
    if (this.text[start] === '"') {
      let i = start + 1;
      while (i < this.text.length && this.text[i] !== '"') i += this.text[i] === "\\" ? 2 : 1;
      if (i >= this.text.length) {
        this.at = this.text.length;
        return undefined;
      }
      this.at = i + 1;
      return JSON.parse(this.text.slice(start, i + 1)) as string;
    }
    let i = start;
    while (i < this.text.length && /[^,\]}\s]/.test(this.text[i])) i++;
    this.at = i;
    // A number or literal at the very end may still grow ("1" -> "12", "tr" -> "true").
    if (i >= this.text.length) return undefined;
    return JSON.parse(this.text.slice(start, i)) as unknown;
  }

  private skipSpace(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at])) this.at++;
  }
}
