/**
 * Aggregates per-schema MaskBench outcomes into the benchmark's figures (passing schemas, compile
 * errors by code/keyword, validation errors (key order apart) and invalidation errors, timeouts, crashes, token and compile
 * percentiles, cold and warm), prints the summary tables and builds the JSON result.
 */
import type { SchemaOutcome, TestFailure } from "./evaluate.js";
import { Samples, summarize, type Summary } from "./stats.js";
import { fmt, formatTable, pct } from "./table.js";

export interface MaskbenchSummary {
  readonly counts: {
    readonly schemas: number;
    readonly passing: number;
    readonly compiled: number;
    readonly compileErrors: number;
    readonly withValidationErrors: number;
    /** Schemas with a valid instance refused only for its key order (key-order.ts). */
    readonly withOrderRejections: number;
    readonly withInvalidationErrors: number;
    readonly withMismatches: number;
    readonly matchErrors: number;
    readonly timeouts: number;
    readonly crashes: number;
  };
  readonly instances: {
    readonly valid: number;
    readonly invalid: number;
    readonly validRejected: number;
    readonly orderRejected: number;
    readonly invalidAccepted: number;
  };
  readonly compileErrorsBy: Readonly<Record<string, number>>;
  readonly compileMs: Summary;
  readonly tokenUs: { readonly cold: Summary; readonly warm: Summary };
  readonly maskUs: { readonly cold: Summary };
}

export interface FailureRecord extends TestFailure {
  readonly file: string;
  readonly validatedAfter: readonly string[];
}

export class MaskbenchTally {
  readonly outcomes: SchemaOutcome[] = [];
  private readonly cold = new Samples();
  private readonly warm = new Samples();
  private readonly coldMask = new Samples();

  add(outcome: SchemaOutcome): void {
    for (const [target, values] of [
      [this.cold, outcome.coldTokenUs],
      [this.warm, outcome.warmTokenUs],
      [this.coldMask, outcome.coldMaskUs],
    ] as const) {
      for (const value of values) target.push(value);
    }
    this.outcomes.push(outcome);
  }

  /** Short running status for progress lines. */
  progress(): string {
    const by = (s: string): number => this.outcomes.filter((o) => o.status === s).length;
    return `pass ${by("pass")}, fail ${by("fail")}, compile-error ${by("compile-error")}, timeout ${by("timeout")}, crash ${by("crash")}`;
  }

  summary(): MaskbenchSummary {
    const os = this.outcomes;
    const count = (pred: (o: SchemaOutcome) => boolean): number => os.filter(pred).length;
    const compileErrorsBy: Record<string, number> = {};
    for (const o of os) {
      if (o.status !== "compile-error" || !o.error) continue;
      const key = o.error.keyword ? `${o.error.code} (${o.error.keyword})` : o.error.code;
      compileErrorsBy[key] = (compileErrorsBy[key] ?? 0) + 1;
    }
    const tests = os.flatMap((o) => (o.compileMs === undefined ? [] : [o]));
    return {
      counts: {
        schemas: os.length,
        passing: count((o) => o.status === "pass"),
        compiled: tests.length,
        compileErrors: count((o) => o.status === "compile-error"),
        withValidationErrors: count((o) => o.validRejected.length > 0),
        withOrderRejections: count((o) => o.orderRejected.length > 0),
        withInvalidationErrors: count((o) => o.invalidAccepted.length > 0),
        withMismatches: count((o) => o.mismatches.length > 0),
        matchErrors: count((o) => o.status === "fail" && o.error !== undefined),
        timeouts: count((o) => o.status === "timeout"),
        crashes: count((o) => o.status === "crash"),
      },
      instances: {
        valid: os.reduce((n, o) => n + o.valid, 0),
        invalid: os.reduce((n, o) => n + o.tests - o.valid, 0),
        validRejected: os.reduce((n, o) => n + o.validRejected.length, 0),
        orderRejected: os.reduce((n, o) => n + o.orderRejected.length, 0),
        invalidAccepted: os.reduce((n, o) => n + o.invalidAccepted.length, 0),
      },
      compileErrorsBy: Object.fromEntries(Object.entries(compileErrorsBy).sort((a, b) => b[1] - a[1])),
      compileMs: summarize(tests.map((o) => o.compileMs!)),
      tokenUs: { cold: this.cold.summary(), warm: this.warm.summary() },
      maskUs: { cold: this.coldMask.summary() },
    };
  }

  failures(kind: "validRejected" | "orderRejected" | "invalidAccepted"): FailureRecord[] {
    return this.outcomes.flatMap((o) => o[kind].map((f) => ({ file: o.file, validatedAfter: o.validatedAfter, ...f })));
  }

  /** Per-schema rows for the JSON result (timings reduced to the slowest single mask). */
  rows(): object[] {
    return this.outcomes.map(({ coldTokenUs, warmTokenUs, coldMaskUs, ...rest }) => ({
      ...rest,
      tokens: coldTokenUs.length,
      slowestMaskUs: coldMaskUs.reduce((a, b) => Math.max(a, b), 0),
    }));
  }
}

export function printSummary(summary: MaskbenchSummary, title: string): void {
  const { counts: c, instances: i } = summary;
  console.log(`\n${title}`);
  console.log(
    formatTable(
      ["schemas", "count", "share"],
      [
        ["total", String(c.schemas), ""],
        ["passing", String(c.passing), pct(c.passing, c.schemas)],
        ["compiled (then passed, failed or timed out)", String(c.compiled), pct(c.compiled, c.schemas)],
        ["compile errors", String(c.compileErrors), pct(c.compileErrors, c.schemas)],
        ["with validation errors (valid rejected)", String(c.withValidationErrors), pct(c.withValidationErrors, c.schemas)],
        ["order (valid, keys against the grammar's order)", String(c.withOrderRejections), pct(c.withOrderRejections, c.schemas)],
        ["with invalidation errors (invalid accepted)", String(c.withInvalidationErrors), pct(c.withInvalidationErrors, c.schemas)],
        ["with engine mismatches", String(c.withMismatches), pct(c.withMismatches, c.schemas)],
        ["typed errors while matching", String(c.matchErrors), pct(c.matchErrors, c.schemas)],
        ["timeouts", String(c.timeouts), pct(c.timeouts, c.schemas)],
        ["crashes", String(c.crashes), pct(c.crashes, c.schemas)],
      ],
    ),
  );
  console.log(`\ninstances: ${i.valid} valid (${i.validRejected} rejected, ${i.orderRejected} for key order), ${i.invalid} invalid (${i.invalidAccepted} accepted)`);
  const row = (name: string, s: Summary): string[] => [name, String(s.n), fmt(s.p50), fmt(s.p90), fmt(s.p99), fmt(s.p999), fmt(s.max), fmt(s.avg)];
  console.log(
    "\n" +
      formatTable(
        ["timing", "n", "p50", "p90", "p99", "p99.9", "max", "avg"],
        [
          row("token us, first pass (cold)", summary.tokenUs.cold),
          row("token us, second pass (warm)", summary.tokenUs.warm),
          row("fillMask us, first pass", summary.maskUs.cold),
          row("compile ms", summary.compileMs),
        ],
      ),
  );
  const errors = Object.entries(summary.compileErrorsBy);
  if (errors.length > 0) {
    console.log("\n" + formatTable(["compile errors by code (keyword)", "schemas"], errors.slice(0, 25).map(([k, n]) => [k, String(n)])));
  }
}
