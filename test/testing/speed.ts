/**
 * Generation speed of the testing kit on a typical extraction schema: run with
 * `npx tsx test/testing/speed.ts`. Prints the one-off compile time per schema and the time of
 * 1,000 generated values per arbitrary (fast-check's default suite is 100 runs).
 */
import fc from "fast-check";
import { arbitrary, arbitraryResult } from "../../src/testing/index.js";
import { INVOICE_TEXT, Invoice } from "./schemas.js";

function time(label: string, run: () => unknown): void {
  const started = performance.now();
  run();
  console.log(`${label.padEnd(44)} ${(performance.now() - started).toFixed(0).padStart(6)} ms`);
}

const RUNS = 1000;
const raw = arbitrary(Invoice);
time("compile (first sample, escapes grammar)", () => fc.sample(raw, { numRuns: 1, seed: 0 }));
time(`arbitrary(Invoice) x ${RUNS}`, () => fc.sample(raw, { numRuns: RUNS, seed: 1 }));
const parsed = arbitrary(Invoice, { parsed: true });
time("compile (first sample, escape-free grammar)", () => fc.sample(parsed, { numRuns: 1, seed: 0 }));
time(`arbitrary(Invoice, { parsed: true }) x ${RUNS}`, () => fc.sample(parsed, { numRuns: RUNS, seed: 2 }));
const results = arbitraryResult(Invoice, INVOICE_TEXT);
time(`arbitraryResult(Invoice, text) x ${RUNS}`, () => fc.sample(results, { numRuns: RUNS, seed: 3 }));
time(`fc.assert(arbitrary(Invoice), ${RUNS} runs)`, () => fc.assert(fc.property(raw, (v) => v !== undefined), { numRuns: RUNS }));
