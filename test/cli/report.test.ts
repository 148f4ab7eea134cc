/**
 * The HTML report without a browser: highlight runs (overlaps, out-of-range spans), the embedded
 * payload's escaping, the summary counts, and writing to a file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { highlightSegments, renderReport, writeReport, type ReportEntry } from "../../src/report/index.js";
import type { FieldReport, FieldStatus } from "../../src/ground/index.js";
import { scratchDir } from "./support/harness.js";

function field(pointer: string, status: FieldStatus, start?: number, end?: number, text = ""): FieldReport {
  const span = start === undefined ? undefined : { start, end: end!, text, match: "exact" as const, score: 1 };
  return { path: [pointer.slice(1)], pointer, status, value: text || null, required: true, spans: span ? [span] : [], ...(span ? { best: span } : {}) };
}

describe("highlightSegments", () => {
  it("cuts the text into runs that cover it exactly, splitting overlaps", () => {
    const text = "Alice Smith is 31.";
    const segs = highlightSegments(text, [field("/first", "found", 0, 5), field("/full", "found", 0, 11), field("/age", "inferred", 15, 17), field("/x", "missing")]);
    expect(segs.map((s) => s.text).join("")).toBe(text);
    expect(segs.map((s) => [s.text, s.fields.map((f) => f.pointer)])).toEqual([
      ["Alice", ["/first", "/full"]],
      [" Smith", ["/full"]],
      [" is ", []],
      ["31", ["/age"]],
      [".", []],
    ]);
  });

  it("leaves out spans that do not fit the text", () => {
    expect(highlightSegments("abc", [field("/a", "found", 2, 9), field("/b", "found", 2, 2)])).toEqual([{ text: "abc", fields: [] }]);
  });

  it("uses UTF-16 offsets (astral characters and CJK)", () => {
    const text = "价格😀¥6,299元";
    const start = text.indexOf("¥");
    const segs = highlightSegments(text, [field("/price", "found", start, start + 6)]);
    expect(segs.find((s) => s.fields.length > 0)!.text).toBe("¥6,299");
  });
});

describe("renderReport", () => {
  const entries: ReportEntry[] = [
    { id: "a", index: 0, result: { ok: true, data: { name: "</script><b>x</b>" }, fields: [field("/name", "found", 0, 17, "</script><b>x</b>")] } },
    { id: "b", index: 1, error: { code: "TEXT_EMPTY", message: "text is empty" } },
    { id: "c", index: 2, result: { ok: false, data: null, partial: { name: null }, fields: [field("/name", "missing")], issues: [{ pointer: "/name", message: "required" }] } },
  ];
  const html = renderReport(entries, ["</script><b>x</b> said hi", "", "nothing"], { title: "T <1>" });

  it("is one self-contained file whose payload cannot close its script element", () => {
    expect(html).not.toMatch(/<(link|img)\b|src=|href=/);
    const payload = html.slice(html.indexOf('<script id="report-data"'), html.indexOf("</script>", html.indexOf('<script id="report-data"')));
    expect(payload).not.toContain("</");
    expect(payload).toContain("\\u003c/script>");
    expect(html).toContain("<title>T &#60;1&#62;</title>");
  });

  it("summarizes documents and fields by status", () => {
    expect(html).toContain('<b id="doc-total">3</b>');
    expect(html).toContain('<span class="count st-ok"><b>1</b> ok</span>');
    expect(html).toContain('<span class="count st-failed"><b>1</b> failed</span>');
    expect(html).toContain('<span class="count st-invalid"><b>1</b> invalid</span>');
    expect(html).toContain('<span class="count st-found"><b>1</b> found</span>');
    expect(html).toContain('<span class="count st-missing"><b>1</b> missing</span>');
  });

  it("embeds per document the status, highlight runs, JSON (partial when invalid), fields, issues and errors", () => {
    const start = html.indexOf('<script id="report-data" type="application/json">') + '<script id="report-data" type="application/json">'.length;
    const data = JSON.parse(html.slice(start, html.indexOf("</script>", start)));
    expect(data.pageSize).toBe(50);
    expect(data.docs[0]).toMatchObject({ id: "a", status: "ok", segs: [["</script><b>x</b>", "found", "/name"], [" said hi", "", ""]] });
    expect(data.docs[1]).toMatchObject({ id: "b", status: "failed", error: "TEXT_EMPTY: text is empty" });
    expect(data.docs[2]).toMatchObject({ id: "c", status: "invalid", json: '{\n  "name": null\n}', fields: [["/name", "missing", "null"]], issues: [["/name", "required"]] });
  });

  it("writeReport writes the same HTML to a file, with texts given as a map by index", async () => {
    const path = join(scratchDir(), "r.html");
    await writeReport(entries, new Map([[0, "</script><b>x</b> said hi"], [2, "nothing"]]), path, { title: "T <1>" });
    expect(readFileSync(path, "utf8")).toBe(html);
  });
});
