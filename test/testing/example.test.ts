/**
 * The example suite of the README section on testing your app, run as a test (imports point at the sources instead of
 * "pocket-extract" and "pocket-extract/testing"; the RandomEngine part uses the fixture
 * vocabulary instead of a model's tokenizer.json). Keep the two in step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, type ExtractResult } from "../../src/index.js";
import { arbitrary, arbitraryResult, fakeExtractor, RandomEngine } from "../../src/testing/index.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

// ---- the app code under test ----------------------------------------------------------------

const Invoice = z.object({
  vendor: z.string().max(60).describe("seller, as written"),
  amount: z.number().positive().describe("total amount due"),
  currency: z.enum(["CNY", "USD", "EUR"]),
  dueDate: z.string().date().optional(),
});
type Invoice = z.infer<typeof Invoice>;

interface Booking {
  readonly vendor: string;
  readonly amount: number;
  readonly currency: Invoice["currency"];
}

interface Ledger {
  book(entry: Booking): void;
  review(reason: string): void;
}

/** Books an extracted invoice, or sends it to review when the amount is not backed by the text. */
function handleInvoice(result: ExtractResult<Invoice>, ledger: Ledger): "booked" | "review" {
  if (!result.ok || result.data === null) {
    ledger.review(`extraction failed: ${result.issues.map((i) => `${i.pointer} ${i.message}`).join("; ")}`);
    return "review";
  }
  const amount = result.fields.find((f) => f.pointer === "/amount");
  if (amount?.status !== "found") {
    ledger.review(`amount is ${amount?.status ?? "absent"}`);
    return "review";
  }
  const { vendor, currency } = result.data;
  ledger.book({ vendor, amount: result.data.amount, currency });
  return "booked";
}

// ---- the property suite ---------------------------------------------------------------------

const TEXT = "发票 No. 2024-0117：供应商 锐思科技有限公司，金额 ¥6,299.00（CNY），付款期限 2024-02-15。";

/** A ledger that remembers what it was asked to do. */
function recordingLedger() {
  const booked: Booking[] = [];
  const reviews: string[] = [];
  return { booked, reviews, book: (e: Booking) => void booked.push(e), review: (r: string) => void reviews.push(r) };
}

/** The property itself: handling never throws, and whatever is booked has a found amount. */
function neverBooksFabricated(result: ExtractResult<Invoice>): void {
  const ledger = recordingLedger();
  const outcome = handleInvoice(result, ledger);
  const amount = result.fields.find((f) => f.pointer === "/amount");
  for (const entry of ledger.booked) {
    expect(amount?.status).toBe("found");
    expect(entry.amount).toBe(amount?.value);
  }
  expect(outcome === "booked").toBe(ledger.booked.length === 1);
}

describe("invoice handler", () => {
  it("never throws and never books a fabricated amount", () => {
    fc.assert(fc.property(arbitraryResult(Invoice, TEXT), neverBooksFabricated), { numRuns: 1000 });
  });

  it("books every valid invoice whose amount is in the text", async () => {
    // Amounts as invoices write them: cents, below a million (the grammar also allows 6e+61).
    const invoices = arbitrary(Invoice, { parsed: true })
      .filter((d) => d.amount >= 0.01 && d.amount < 1e6)
      .map((d) => ({ ...d, amount: Math.round(d.amount * 100) / 100 }));
    await fc.assert(
      fc.asyncProperty(invoices, fc.string({ minLength: 1 }), async (data, filler) => {
        const text = `${filler} 金额 ${data.amount} 元`;
        const extractor = fakeExtractor({ results: new Map([[text, data]]) });
        const ledger = recordingLedger();
        handleInvoice(await extractor.extract(Invoice, text), ledger);
        expect(ledger.booked).toEqual([{ vendor: data.vendor, amount: data.amount, currency: data.currency }]);
      }),
      { numRuns: 200 },
    );
  });

  it("holds end to end on whatever the constrained decoder emits (RandomEngine, no model)", async () => {
    const vocabulary = await fixtureVocabulary(); // users: loadTokenizerJson("path/to/tokenizer.json")
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (seed) => {
        const extractor = await createExtractor({ engine: new RandomEngine({ vocabulary, seed }), maxTokens: 64 });
        neverBooksFabricated(await extractor.extract(Invoice, TEXT));
      }),
      { numRuns: 10 },
    );
  });
});

// ---- the suite has teeth: a handler that trusts `ok` alone is caught ------------------------

it("catches a handler that books any valid result", () => {
  const naive = (result: ExtractResult<Invoice>, ledger: Ledger): void => {
    if (result.ok && result.data) ledger.book({ vendor: result.data.vendor, amount: result.data.amount, currency: result.data.currency });
  };
  const out = fc.check(
    fc.property(arbitraryResult(Invoice, TEXT), (result) => {
      const ledger = recordingLedger();
      naive(result, ledger);
      return ledger.booked.every(() => result.fields.find((f) => f.pointer === "/amount")?.status === "found");
    }),
    { numRuns: 1000, seed: 1 },
  );
  expect(out.failed).toBe(true);
});
