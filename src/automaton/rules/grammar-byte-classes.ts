/**
 * Byte classes of a grammar read off its IR, for a grammar automaton whose rules are not all
 * built yet (build.ts leaves a big schema's far rules to the documents that reach them). Every
 * byte a literal spells and every boundary of a character range's UTF-8 ranges starts a class;
 * a string adds what its automaton can tell apart, read off its spec without building it: the
 * JSON string structure (quote, escapes, control bytes, UTF-8 lead and continuation ranges), its
 * pattern's and excluded patterns' own pieces, and the bytes of its excluded names and verbatim
 * text. Every rule and string automaton is built from exactly such pieces, and determinizing,
 * products and minimizing only merge classes, so these classes refine every automaton's
 * (test/automaton/rules/grammar-byte-classes.test.ts checks it): far fewer than 256 single bytes.
 */
import type { Expr, Grammar } from "../../grammar/index.js";
import { allParts, anyText, patternLanguage } from "../../regex/index.js";
import { encodeCodePoint, partitionFromCuts, utf8Sequences, type Partition } from "../fsa/index.js";
import { ESCAPE_ALPHABET, type JsonStringSpec } from "../strings/index.js";

/** The JSON string structure every string automaton shares (with `anyText`'s UTF-8 ranges):
 *  control bytes, each byte of an escape, continuation bytes. */
const STRUCTURE_CUTS = [0x20, 0x80, 0xc0, ...[...ESCAPE_ALPHABET].flatMap((b) => [b, b + 1])];

export function grammarByteClasses(grammar: Grammar): Partition {
  const found = new ByteCuts();
  for (const expr of grammar.rules.values()) found.addExpr(expr);
  return partitionFromCuts(found.cuts());
}

/** Bytes that start a class (each source read once: an object's excluded names are shared by
 *  all its member strings). */
class ByteCuts {
  private readonly starts = new Uint8Array(257);
  private strings = false;
  private readonly patterns = new Set<string>();
  private readonly nameLists = new Set<readonly string[]>();

  cuts(): number[] {
    const out: number[] = [];
    for (let b = 0; b < 256; b++) if (this.starts[b]) out.push(b);
    return out;
  }

  addExpr(e: Expr): void {
    switch (e.kind) {
      case "lit":
        this.addText(e.text);
        return;
      case "chars":
        for (const [lo, hi] of e.ranges) for (const seq of utf8Sequences(lo, hi)) for (const [from, to] of seq) this.addRange(from, to);
        return;
      case "seq":
      case "alt":
        for (const item of e.items) this.addExpr(item);
        return;
      case "repeat":
        this.addExpr(e.item);
        return;
      case "jsonString":
        this.addString(e);
        return;
      case "ref":
        return;
    }
  }

  private addString(spec: JsonStringSpec): void {
    if (!this.strings) {
      this.strings = true;
      for (const b of STRUCTURE_CUTS) this.starts[b] = 1;
      this.addExpr(anyText);
    }
    for (const pattern of [...(spec.pattern === undefined ? [] : [spec.pattern]), ...(spec.excludePatterns ?? [])]) {
      if (this.patterns.has(pattern)) continue;
      this.patterns.add(pattern);
      for (const { prefix, whole } of allParts(patternLanguage(pattern))) {
        if (prefix !== null) this.addExpr(prefix);
        if (whole !== null) this.addExpr(whole);
      }
    }
    if (spec.exclude !== undefined && !this.nameLists.has(spec.exclude)) {
      this.nameLists.add(spec.exclude);
      for (const name of spec.exclude) this.addStringText(name);
    }
    if (spec.substringOf !== undefined) this.addStringText(spec.substringOf);
  }

  /** A text a string's content matches: its bytes raw and as spelled in JSON. */
  private addStringText(text: string): void {
    this.addText(text);
    this.addText(JSON.stringify(text));
  }

  private addText(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) this.addRange(unit, unit);
      else {
        const cp = text.codePointAt(i)!;
        if (cp > 0xffff) i++;
        for (const b of encodeCodePoint(cp)) this.addRange(b, b);
      }
    }
  }

  private addRange(from: number, to: number): void {
    this.starts[from] = 1;
    this.starts[to + 1] = 1;
  }
}
