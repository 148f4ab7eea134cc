/**
 * Small statistics helpers for the benchmarks: a growable sample buffer, nearest-rank
 * percentiles, and the median of per-run figures (benchmarks repeat a measurement and report
 * the median run, so one noisy run on a shared machine does not decide the result).
 */

/** Percentiles and mean of a set of samples (all in the unit the samples were recorded in). */
export interface Summary {
  readonly n: number;
  readonly avg: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

export const EMPTY_SUMMARY: Summary = { n: 0, avg: NaN, p50: NaN, p90: NaN, p99: NaN, p999: NaN, max: NaN };

/** A growable buffer of float samples (cheaper than number[] for millions of timings). */
export class Samples {
  private data = new Float64Array(1024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(value: number): void {
    if (this.count === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.count++] = value;
  }

  pushAll(other: Samples): void {
    for (let i = 0; i < other.count; i++) this.push(other.data[i]!);
  }

  values(): Float64Array {
    return this.data.slice(0, this.count);
  }

  summary(): Summary {
    return summarize(this.values());
  }
}

/** Nearest-rank percentile of an ascending array (p in [0, 100]). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(values: ArrayLike<number>): Summary {
  if (values.length === 0) return EMPTY_SUMMARY;
  const sorted = Float64Array.from(values).sort();
  let total = 0;
  for (const value of sorted) total += value;
  return {
    n: sorted.length,
    avg: total / sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted[sorted.length - 1]!,
  };
}

export function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 50);
}

/** Field-wise median of several runs' summaries (n is the total sample count of the runs). */
export function medianSummary(runs: readonly Summary[]): Summary {
  if (runs.length === 0) return EMPTY_SUMMARY;
  const pick = (key: keyof Summary): number => median(runs.map((r) => r[key]));
  return {
    n: runs.reduce((sum, r) => sum + r.n, 0),
    avg: pick("avg"),
    p50: pick("p50"),
    p90: pick("p90"),
    p99: pick("p99"),
    p999: pick("p999"),
    max: pick("max"),
  };
}
