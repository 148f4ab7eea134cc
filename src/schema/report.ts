/**
 * Builds the compile report. A first pass classifies every keyword of every subschema with the
 * keyword table's default; the compiler then overrides entries where it knows better (keyed by
 * pointer + keyword, so an override replaces rather than duplicates).
 */

import { defaultClass, subschemas, type KeywordClass } from "./keywords.js";
import type { CompileReport, KeywordUse } from "./types.js";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export class ReportBuilder {
  private readonly entries = new Map<string, { cls: KeywordClass; use: KeywordUse }>();

  set(pointer: string, keyword: string, cls: KeywordClass, note?: string): void {
    this.entries.set(`${pointer}\u0000${keyword}`, { cls, use: note === undefined ? { keyword, pointer } : { keyword, pointer, note } });
  }

  /** A second entry for a keyword that is enforced in part and checked after decoding in part. */
  alsoAfter(pointer: string, keyword: string, note: string): void {
    this.entries.set(`${pointer}\u0000${keyword}\u0000after`, { cls: "validatedAfter", use: { keyword, pointer, note } });
  }

  /** Classifies every keyword reachable from `root` (visiting each schema object once). */
  classifyAll(root: unknown, legacyRefs: boolean): void {
    const seen = new Set<object>();
    const stack: [unknown, string][] = [[root, ""]];
    while (stack.length > 0) {
      const [node, ptr] = stack.pop()!;
      if (!isRecord(node) || seen.has(node)) continue;
      seen.add(node);
      const refSiblingsIgnored = legacyRefs && "$ref" in node;
      for (const k of Object.keys(node)) {
        if (refSiblingsIgnored && k !== "$ref" && k !== "$defs" && k !== "definitions") {
          this.set(ptr, k, "annotation", "ignored beside $ref (draft 7 and earlier)");
          continue;
        }
        const { cls, note } = defaultClass(k);
        this.set(ptr, k, cls, note);
      }
      if (node.type === "integer") {
        for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) if (k in node) this.set(ptr, k, "enforced");
      }
      if ("oneOf" in node) {
        this.set(ptr, "oneOf", "enforced", "as anyOf");
        this.alsoAfter(ptr, "oneOf", "exactly-one-branch is checked after decoding");
      }
      if ("format" in node && !legacyRefs) {
        this.set(ptr, "format", "enforced", "asserted by the grammar (stricter than draft 2019-09+, where format is an annotation by default)");
      }
      for (const child of subschemas(node, ptr)) stack.push(child);
    }
  }

  build(): CompileReport {
    const out: Record<KeywordClass, KeywordUse[]> = { enforced: [], validatedAfter: [], annotation: [] };
    for (const { cls, use } of this.entries.values()) out[cls].push(use);
    return { enforced: out.enforced, validatedAfter: out.validatedAfter, annotations: out.annotation };
  }
}
