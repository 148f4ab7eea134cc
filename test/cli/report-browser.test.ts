/**
 * The HTML grounding report in a real browser: Debian's chromium (installed by
 * test/cli/install-chromium.sh) driven by playwright-core. The report is written with
 * `writeReport` straight from `extractMany`'s results (ScriptedEngine on the fixture vocabulary,
 * 120 documents, so it paginates), then checked in the page: the highlights of known spans, the
 * field table, a hostile text shown as text, search, the status filter, paging. A screenshot is
 * kept in test/cli/artifacts/report.png. Without chromium this fails under CI=true and skips
 * (saying so) elsewhere.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, type BatchResult } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { writeReport } from "../../src/report/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { ROOT, scratchDir } from "./support/harness.js";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test/cli/artifacts");
const available = existsSync(CHROMIUM);
const required = process.env.CI === "true";
if (!available && !required) console.warn(`report-browser: SKIPPED, ${CHROMIUM} is missing (run test/cli/install-chromium.sh)`);

const Person = z.object({ name: z.string(), city: z.string().nullable(), age: z.number().int().nullable() });

const SPECIAL = [
  { text: "Alice Martin lives in Lyon and is 31.", answer: '{"name":"Alice Martin","city":"Lyon","age":31}' },
  { text: "Carol is 40.", answer: '{"name":"Zed","city":null,"age":40}' },
  { text: '<img src=x onerror="document.title=\'pwned\'"> Eve from Oslo', answer: '{"name":"Eve","city":"Oslo","age":null}' },
];
const TEXTS = [...SPECIAL.map((s) => s.text), ...Array.from({ length: 117 }, (_, i) => `Person ${i} is named Name${i}, lives in Town${i}.`)];

describe.skipIf(!available && !required)("HTML report in chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!available) throw new Error(`${CHROMIUM} is missing: CI must run test/cli/install-chromium.sh before the tests`);
    const vocabulary = await fixtureVocabulary();
    const engine = new ScriptedEngine({
      vocabulary,
      script: (prompt) => {
        const special = SPECIAL.find((s) => prompt.includes(s.text));
        if (special) return special.answer;
        const i = /Person (\d+) is named/.exec(prompt)![1];
        return `{"name":"Name${i}","city":"Town${i}","age":null}`;
      },
    });
    const extractor = await createExtractor({ engine });
    const results: BatchResult<unknown>[] = [];
    for await (const r of extractor.extractMany(Person, TEXTS.map((text, i) => ({ text, id: `doc-${i}` })))) results.push(r);
    const path = join(scratchDir(), "report.html");
    await writeReport(results, TEXTS, path);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`file://${path}`);
    await page.waitForSelector("article.doc");
    expect(errors).toEqual([]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
  });

  const card = (id: string) => page.locator(`article.doc[data-id="${id}"]`);

  it("shows the summary and the first page of 50 documents", async () => {
    await expect.poll(() => page.locator("#doc-total").textContent()).toBe("120");
    expect(await page.locator("article.doc").count()).toBe(50);
    expect(await page.locator("#page-info").textContent()).toBe("page 1 of 3 (120 of 120 documents)");
    expect(await page.locator("#doc-counts .count.st-fabricated b").textContent()).toBe("1");
    expect(await page.locator("#field-counts .count.st-found b").textContent()).toBe(String(2 * 117 + 3 + 1 + 2));
  });

  it("highlights the known spans, colored by status, and lists the fields beside the JSON", async () => {
    const alice = card("doc-0");
    const name = alice.locator('mark.hl[data-pointer="/name"]');
    expect(await name.textContent()).toBe("Alice Martin");
    expect(await name.getAttribute("data-status")).toBe("found");
    expect(await alice.locator('mark.hl[data-pointer="/city"]').textContent()).toBe("Lyon");
    expect(await alice.locator('mark.hl[data-pointer="/age"]').textContent()).toBe("31");
    // Runs in the page; the cast stands in for the DOM types this project's lib leaves out.
    type Styles = { getComputedStyle(e: unknown): { backgroundColor: string } };
    const color = await name.evaluate((e) => (globalThis as unknown as Styles).getComputedStyle(e).backgroundColor);
    expect(color).toBe("rgb(191, 232, 196)");
    expect(JSON.parse((await alice.locator("pre.json").textContent())!)).toEqual({ name: "Alice Martin", city: "Lyon", age: 31 });
    const carol = card("doc-1");
    expect(await carol.locator(".badge").textContent()).toBe("fabricated");
    expect(await carol.locator('mark.hl[data-pointer="/name"]').count()).toBe(0);
    expect(await carol.locator('tr.field[data-pointer="/name"] .fst').textContent()).toBe("fabricated");
    expect(await carol.locator('tr.field[data-pointer="/city"] .fst').textContent()).toBe("missing");
    expect(await carol.locator('mark.hl[data-pointer="/age"]').textContent()).toBe("40");
  });

  it("shows a hostile text as text", async () => {
    const eve = card("doc-2");
    expect(await eve.locator("img").count()).toBe(0);
    expect(await eve.locator(".doc-text").textContent()).toBe(TEXTS[2]);
    expect(await page.title()).toBe("pocket-extract grounding report");
  });

  it("takes a screenshot kept as an artifact", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, "report.png");
    await page.screenshot({ path, fullPage: false });
    expect(existsSync(path)).toBe(true);
  });

  it("searches, filters by status and pages", async () => {
    await page.fill("#search", "town117");
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 1 of 1 (0 of 120 documents)");
    await page.fill("#search", "town116");
    await expect.poll(() => page.locator("article.doc").count()).toBe(1);
    expect(await page.locator("article.doc").getAttribute("data-id")).toBe("doc-119");
    await page.fill("#search", "");
    // The search box re-renders 120 ms after typing (debounced): let that land first, or it can
    // reset the page after a later click.
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 1 of 3 (120 of 120 documents)");
    await page.selectOption("#status-filter", "fabricated");
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 1 of 1 (1 of 120 documents)");
    await page.selectOption("#status-filter", "all");
    // Filtering re-renders from page 1: wait for it before paging, or a click can land first.
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 1 of 3 (120 of 120 documents)");
    await page.click("#next");
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 2 of 3 (120 of 120 documents)");
    await page.click("#next");
    await expect.poll(() => page.locator("#page-info").textContent()).toBe("page 3 of 3 (120 of 120 documents)");
    expect(await page.locator("article.doc").count()).toBe(20);
    expect(await page.locator("#next").isDisabled()).toBe(true);
  });
});
