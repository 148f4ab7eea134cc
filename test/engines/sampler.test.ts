/**
 * The shared C++ masked sampler (native/src/masked_sampler.cpp, used by the llama.cpp and MNN
 * addons) on logits the test chooses: a small driver (sampler-harness.cpp) is compiled with the
 * machine's g++, as the addons are. Over many seeds, top-k and top-p only ever return allowed ids
 * of the nucleus, which is computed here by sorting; each nucleus id comes up as often as its
 * probability says; ties go to the lowest ids; and a draw walks the kept ids in id order.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../src/engines/testing/prng.js";

const nativeSrc = fileURLToPath(new URL("../../native/src/", import.meta.url));
const harnessSrc = fileURLToPath(new URL("./sampler-harness.cpp", import.meta.url));
/** The addon's code generation flags (native/build.mjs): no FMA contraction, so variants round alike. */
const CXX_FLAGS = ["-std=c++17", "-O2", "-ffp-contract=off"];
let harness: string;

beforeAll(() => {
  harness = join(mkdtempSync(join(tmpdir(), "pocket-sampler-")), "harness");
  execFileSync(process.env.CXX ?? "g++", [...CXX_FLAGS, "-Wall", "-Wextra", "-Werror", `-I${nativeSrc}`, harnessSrc, join(nativeSrc, "masked_sampler.cpp"), "-o", harness], {
    stdio: "inherit",
  });
});

interface Options {
  readonly temperature: number;
  readonly topK?: number;
  readonly topP?: number;
  readonly minP?: number;
}
interface Case extends Options {
  readonly logits: Float32Array;
  readonly mask: Uint32Array;
  readonly seeds: number;
  readonly firstSeed?: number;
}

const hexBits = (x: number): string => (new Uint32Array(Float32Array.of(x).buffer)[0]! >>> 0).toString(16);

/** The harness's output lines for the cases (`withMinP: false` speaks the previous format). */
function run(program: string, cases: readonly Case[], withMinP = true): string[] {
  const input = cases
    .map((c) =>
      [
        `${c.logits.length} ${hexBits(c.temperature)} ${c.topK ?? 0} ${hexBits(c.topP ?? 1)}${withMinP ? ` ${hexBits(c.minP ?? 0)}` : ""} ${c.firstSeed ?? 1} ${c.seeds}`,
        Array.from(new Uint32Array(c.logits.buffer, c.logits.byteOffset, c.logits.length), (b) => b.toString(16)).join(" "),
        Array.from(c.mask, (w) => (w >>> 0).toString(16)).join(" "),
      ].join("\n"),
    )
    .join("\n");
  return execFileSync(program, { input, encoding: "utf8", maxBuffer: 64 << 20 }).trimEnd().split("\n");
}

/** The ids drawn for seeds firstSeed, firstSeed + 1, …, one array per case. */
function draw(...cases: Case[]): number[][] {
  return run(harness, cases).map((line) => {
    if (line.startsWith("invalid")) throw new Error(`the sampler refused the logits: ${line}`);
    return line.split(" ").map(Number);
  });
}

/** The id whose logit the sampler refused, for a case it must refuse. */
function refusedId(c: Case): number {
  const [line = ""] = run(harness, [c]);
  const match = /^invalid (\d+)$/.exec(line);
  if (!match) throw new Error(`expected a refusal, got ${line.slice(0, 80)}`);
  return Number(match[1]);
}

const maskWords = (width: number): number => Math.ceil(width / 32);
const allowAll = (width: number): Uint32Array => {
  const mask = new Uint32Array(maskWords(width)).fill(0xffffffff);
  if (width % 32 !== 0) mask[mask.length - 1] = 2 ** (width % 32) - 1;
  return mask;
};
const allowed = (mask: Uint32Array, id: number): boolean => (mask[id >>> 5]! & (1 << (id & 31))) !== 0;
const maskOf = (width: number, ids: Iterable<number>): Uint32Array => {
  const mask = new Uint32Array(maskWords(width));
  for (const id of ids) mask[id >>> 5]! |= 1 << (id & 31);
  return mask;
};

function gaussianLogits(width: number, scale: number, seed: number): Float32Array {
  const random = mulberry32(seed);
  const logits = new Float32Array(width);
  for (let i = 0; i < width; i++) logits[i] = scale * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return logits;
}

/**
 * The kept ids (in id order) and their probabilities, by the definition: rank allowed ids by
 * logit (NaN as -inf), highest first and lowest id on ties; keep the first top_k; weigh them as
 * the sampler does (float exp of (logit - max) / T); rank by weight the same way and keep the
 * shortest non-empty prefix whose weight reaches top_p of the total. Throws when a prefix sum
 * lies so close to that goal that float exp rounding could move the boundary.
 */
function nucleus(logits: Float32Array, mask: Uint32Array, { temperature, topK = 0, topP = 1, minP = 0 }: Options): Map<number, number> {
  let ranked: { id: number; v: number }[] = [];
  for (let id = 0; id < logits.length; id++) if (allowed(mask, id)) ranked.push({ id, v: Number.isNaN(logits[id]) ? -Infinity : logits[id]! });
  const byValue = (a: { id: number; v: number }, b: { id: number; v: number }): number => (a.v === b.v ? a.id - b.id : b.v - a.v);
  ranked.sort(byValue);
  if (topK > 0) ranked = ranked.slice(0, topK);
  const max = ranked[0]!.v;
  const inv = Math.fround(1 / Math.fround(temperature));
  ranked = ranked.map(({ id, v }) => ({ id, v: Math.fround(Math.exp(Math.fround(Math.fround(v - max) * inv))) })).sort(byValue);
  const total = ranked.reduce((s, c) => s + c.v, 0);
  const goal = Math.fround(topP) * total;
  let kept = 0;
  let mass = 0;
  for (const c of ranked) {
    if (kept > 0 && mass >= goal) break;
    mass += c.v;
    kept++;
  }
  if (topP < 1) {
    let prefix = 0;
    for (const c of ranked) {
      prefix += c.v;
      // Float exp here and in C++ may differ by an ulp (~1.2e-7) per weight, and so every sum.
      if (prefix !== goal && Math.abs(prefix - goal) < 3e-7 * total) throw new Error("ambiguous nucleus boundary: choose another top_p");
    }
  }
  // Min-p after top-p: weights are relative to the best one's, which is exactly 1.
  const keep = ranked.slice(0, kept).filter((c) => c.v >= Math.fround(minP));
  const keptMass = keep.reduce((s, c) => s + c.v, 0);
  return new Map(keep.map((c) => [c.id, c.v / keptMass]));
}

describe("masked sampler: top-p and top-k keep exactly the nucleus", () => {
  const width = 65536;
  const random = mulberry32(3);
  const halfMask = new Uint32Array(maskWords(width)).map(() => (random() * 2 ** 32) >>> 0);
  // Peaked (a few ids carry the mass), moderate and nearly flat (the nucleus is most of the vocabulary).
  const distributions = [
    { name: "peaked", logits: gaussianLogits(width, 4, 11), temperature: 0.7 },
    { name: "moderate", logits: gaussianLogits(width, 1.5, 12), temperature: 1 },
    { name: "flat", logits: gaussianLogits(width, 0.3, 13), temperature: 1.5 },
  ];

  it.each(distributions)("$name logits: every draw over 1,000 seeds is an allowed id of the nucleus", ({ logits, temperature }) => {
    const settings: Options[] = [
      { temperature, topP: 0.9 },
      { temperature, topP: 0.5 },
      { temperature, topK: 40 },
      { temperature, topK: 300, topP: 0.7 },
      { temperature, minP: 0.1 },
      { temperature, topP: 0.9, minP: 0.3 },
    ];
    const results = draw(...settings.map((o) => ({ ...o, logits, mask: halfMask, seeds: 1000 })));
    settings.forEach((o, i) => {
      const keep = nucleus(logits, halfMask, o);
      const outside = results[i]!.filter((id) => !keep.has(id));
      expect(outside, JSON.stringify(o)).toEqual([]);
      // The draws spread over the nucleus as its probabilities say, rather than sticking to its head.
      const expectedDistinct = [...keep.values()].reduce((s, p) => s + 1 - (1 - p) ** 1000, 0);
      expect(new Set(results[i]).size, JSON.stringify(o)).toBeGreaterThan(0.8 * expectedDistinct);
    });
  });

  it("top-k above the heap's size (1,024; the radix search instead) keeps exactly the k best", () => {
    const { logits, temperature } = distributions[2]!;
    const o = { temperature, topK: 3000 };
    const keep = nucleus(logits, halfMask, o);
    const ids = draw({ ...o, logits, mask: halfMask, seeds: 1000 })[0]!;
    expect(ids.filter((id) => !keep.has(id))).toEqual([]);
    expect(new Set(ids).size).toBeGreaterThan(500);
  });

  it("a draw walks the kept ids in id order: top-p gives the id that plain sampling over a mask of just the nucleus gives, seed for seed", () => {
    for (const { logits, temperature } of distributions) {
      const o = { temperature, topP: 0.8 };
      const keep = nucleus(logits, halfMask, o);
      const [withTopP, overNucleus] = draw({ ...o, logits, mask: halfMask, seeds: 500 }, { temperature, logits, mask: maskOf(width, keep.keys()), seeds: 500 });
      expect(withTopP).toEqual(overNucleus);
    }
  });

  it("a mostly open mask (weighed in place, every position a candidate): draws stay in the nucleus and equal plain sampling over the nucleus, seed for seed", () => {
    // 4,099 ids: the last mask word is partly past the vocabulary.
    for (const width of [65536, 4099]) {
      const random = mulberry32(width);
      const mostlyOpen = maskOf(width, Array.from({ length: width }, (_, id) => id).filter(() => random() < 0.9));
      for (const { logits: full, temperature } of distributions) {
        const logits = full.subarray(0, width);
        for (const o of [{ temperature, topP: 0.8 }, { temperature, minP: 0.2 }, { temperature, topP: 0.9, minP: 0.05 }]) {
          const keep = nucleus(logits, mostlyOpen, o);
          const [withCut, overNucleus] = draw({ ...o, logits, mask: mostlyOpen, seeds: 300 }, { temperature, logits, mask: maskOf(width, keep.keys()), seeds: 300 });
          expect(withCut!.filter((id) => !keep.has(id)), `${width} ${JSON.stringify(o)}`).toEqual([]);
          expect(withCut, `${width} ${JSON.stringify(o)}`).toEqual(overNucleus);
        }
      }
    }
  });

  it("each nucleus id is drawn as often as its renormalized probability says", () => {
    const logits = Float32Array.from({ length: 100 }, (_, i) => (i < 8 ? 3 - i * 0.4 : -2 - (i % 7)));
    const mask = allowAll(100);
    const o = { temperature: 1, topP: 0.85 };
    const keep = nucleus(logits, mask, o);
    expect(keep.size).toBeGreaterThan(3);
    const n = 20000;
    const counts = new Map<number, number>();
    for (const id of draw({ ...o, logits, mask, seeds: n })[0]!) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.keys()].every((id) => keep.has(id))).toBe(true);
    for (const [id, p] of keep) {
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs((counts.get(id) ?? 0) - n * p), `id ${id}`).toBeLessThan(5 * sd);
    }
  });
});

/** The chi-square distribution's 99.9% quantile for 1 … 19 degrees of freedom. */
const CHI_SQUARE_999 = [10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26, 32.91, 34.53, 36.12, 37.7, 39.25, 40.79, 42.31, 43.82];

/**
 * Whether draws fit the nucleus' probabilities by a chi-square test at the 0.1% level: the ids
 * (in id order) are grouped into up to `bins` runs of about equal probability (an id heavier
 * than a run is a run of its own), so every run expects many draws whatever the nucleus' size.
 */
function fitsChiSquare(draws: readonly number[], keep: Map<number, number>, bins = 20): { statistic: number; limit: number } {
  const binOf = new Map<number, number>();
  const expected = new Array<number>(bins).fill(0);
  let cumulative = 0;
  for (const id of [...keep.keys()].sort((a, b) => a - b)) {
    const p = keep.get(id)!;
    const bin = Math.min(bins - 1, Math.floor((cumulative + p / 2) * bins));
    binOf.set(id, bin);
    expected[bin]! += p * draws.length;
    cumulative += p;
  }
  const observed = new Array<number>(bins).fill(0);
  for (const id of draws) observed[binOf.get(id)!]! += 1;
  const used = expected.flatMap((e, i) => (e > 0 ? [i] : []));
  const statistic = used.reduce((sum, i) => sum + (observed[i]! - expected[i]!) ** 2 / expected[i]!, 0);
  return { statistic, limit: CHI_SQUARE_999[used.length - 2] ?? 0 };
}

describe("masked sampler: the draws follow the nucleus' probabilities (chi-square)", () => {
  const width = 65536;
  // Flat and moderate (the sample brackets the cut), peaked (a few ids hold the mass: the head
  // bracket) and heavy-tailed (the head falls short: the sample brackets the rest below it).
  const cases = [
    { name: "flat", logits: gaussianLogits(width, 0.3, 61), temperature: 1.5, topP: 0.85 },
    { name: "moderate", logits: gaussianLogits(width, 1, 62), temperature: 0.8, topP: 0.9 },
    { name: "peaked", logits: gaussianLogits(width, 4, 63), temperature: 0.8, topP: 0.9 },
    { name: "heavy tail", logits: gaussianLogits(width, 4, 64), temperature: 1.5, topP: 0.95 },
  ];
  it.each(cases)("$name logits, all ids allowed: 4,000 draws pass a chi-square test (0.1% level) against the nucleus", ({ logits, temperature, topP }) => {
    const mask = allowAll(width);
    const keep = nucleus(logits, mask, { temperature, topP });
    const draws = draw({ temperature, topP, logits, mask, seeds: 4000 })[0]!;
    expect(keep.size).toBeGreaterThan(2);
    expect(draws.filter((id) => !keep.has(id))).toEqual([]);
    const { statistic, limit } = fitsChiSquare(draws, keep);
    expect(statistic).toBeLessThan(limit);
  });

  it("min-p with top-p over all ids: 4,000 draws pass a chi-square test (0.1% level)", () => {
    const logits = gaussianLogits(width, 1, 65);
    const mask = allowAll(width);
    const o = { temperature: 0.8, topP: 0.95, minP: 0.02 };
    const keep = nucleus(logits, mask, o);
    const draws = draw({ ...o, logits, mask, seeds: 4000 })[0]!;
    expect(draws.filter((id) => !keep.has(id))).toEqual([]);
    const { statistic, limit } = fitsChiSquare(draws, keep);
    expect(statistic).toBeLessThan(limit);
  });
});

describe("masked sampler: greedy and top-k equal the reference on random inputs", () => {
  it("greedy picks the reference argmax (lowest id on ties) and top-k draws stay in the reference top k, over random logits and masks", () => {
    const random = mulberry32(71);
    const cases = Array.from({ length: 24 }, (_, i) => {
      const width = [100, 4096, 65536][i % 3]!;
      // Rounded logits make ties common; densities from a few ids to all of them.
      const logits = gaussianLogits(width, 2, 100 + i).map((x) => Math.round(x * 4) / 4);
      const density = [0.001, 0.05, 0.5, 1][i % 4]!;
      const mask = density === 1 ? allowAll(width) : maskOf(width, Array.from({ length: width }, (_, id) => id).filter(() => random() < density));
      if (!mask.some((w) => w !== 0)) mask[0] = 1;
      return { logits, mask };
    });
    const greedy = draw(...cases.map((c) => ({ ...c, temperature: 0, seeds: 1 })));
    const topK = draw(...cases.map((c) => ({ ...c, temperature: 1, topK: 5, seeds: 200 })));
    cases.forEach((c, i) => {
      const reference = nucleus(c.logits, c.mask, { temperature: 1, topK: 5 });
      const best = [...reference.keys()].reduce((a, b) => (c.logits[b]! > c.logits[a]! || (c.logits[b] === c.logits[a] && b < a) ? b : a));
      expect(greedy[i], `case ${i}`).toEqual([best]);
      expect(topK[i]!.filter((id) => !reference.has(id)), `case ${i}`).toEqual([]);
    });
  });

  it("the same seed draws the same ids with top-p over all 65,536 ids (the sampled bracket is deterministic)", () => {
    const logits = gaussianLogits(65536, 1, 81);
    const c = { temperature: 0.8, topP: 0.9, logits, mask: allowAll(65536), seeds: 300, firstSeed: 5 };
    const [a, b] = draw(c, c);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(250);
  });
});

describe("masked sampler: ties, edge values and options", () => {
  it("ties go to the lowest ids: flat logits keep the first ids of the mask", () => {
    const width = 65536;
    const flat = new Float32Array(width).fill(1.5);
    const mask = allowAll(width);
    for (let id = 0; id < 10; id++) mask[0]! &= ~(1 << id);
    const runs = draw({ temperature: 1, topP: 0.25, logits: flat, mask, seeds: 500 }, { temperature: 1, topK: 100, logits: flat, mask, seeds: 500 });
    const topP = runs[0]!;
    const topK = runs[1]!;
    // A quarter of 65,526 equal weights needs 16,382 ids: 10 … 16,391.
    expect(Math.min(...topP)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...topP)).toBeLessThanOrEqual(16391);
    expect(Math.max(...topP)).toBeGreaterThan(16000);
    expect(Math.min(...topK)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...topK)).toBeLessThanOrEqual(109);
  });

  it("-0 and +0 logits tie (lowest id wins); NaN and infinite logits of forbidden ids are never read", () => {
    const logits = new Float32Array(64).fill(-1);
    logits[3] = -0;
    logits[5] = 0;
    logits[9] = NaN;
    logits[10] = -Infinity;
    logits[11] = Infinity;
    const mask = allowAll(64);
    for (const id of [9, 10, 11]) mask[0]! &= ~(1 << id);
    const [best, greedy, spread] = draw(
      { temperature: 1, topK: 1, logits, mask, seeds: 50 },
      { temperature: 0, logits, mask, seeds: 1 },
      { temperature: 5, logits, mask, seeds: 3000 },
    );
    expect(new Set(best)).toEqual(new Set([3]));
    expect(greedy).toEqual([3]);
    expect(new Set(spread).size).toBe(61);
  });

  it("a NaN or infinite logit of an allowed id is refused in every mode, naming the first such id", () => {
    const width = 4096;
    const modes: Options[] = [{ temperature: 0 }, { temperature: 0.8 }, { temperature: 0.8, topK: 5 }, { temperature: 1, topP: 0.9 }, { temperature: 1, minP: 0.1 }];
    for (const bad of [NaN, Infinity, -Infinity]) {
      // In a fully allowed word (the vector path) and among scattered ids (the bit-by-bit path).
      for (const [at, mask] of [
        [1000, allowAll(width)],
        [77, maskOf(width, [5, 77, 3000])],
      ] as const) {
        const logits = gaussianLogits(width, 1, 41);
        logits[at] = bad;
        logits[at + 1] = bad;
        for (const mode of modes) expect(refusedId({ ...mode, logits, mask, seeds: 1 }), `${bad} at ${at}, ${JSON.stringify(mode)}`).toBe(at);
      }
    }
    // Every logit broken, as corrupted weights give: refused, not "the lowest allowed id".
    expect(refusedId({ temperature: 0, logits: new Float32Array(width).fill(NaN), mask: allowAll(width), seeds: 1 })).toBe(0);
  });

  it("top_p 0, top_k 1 and min_p 1 reduce to greedy", () => {
    const width = 65536;
    const logits = gaussianLogits(width, 2, 21);
    const mask = maskOf(width, [7, 500, 40000, 65535]);
    const best = [7, 500, 40000, 65535].reduce((a, b) => (logits[b]! > logits[a]! ? b : a));
    const [greedy, p0, k1, m1] = draw(
      { temperature: 0, logits, mask, seeds: 1 },
      { temperature: 1, topP: 0, logits, mask, seeds: 100 },
      { temperature: 1, topK: 1, logits, mask, seeds: 100 },
      { temperature: 1, minP: 1, logits, mask, seeds: 100 },
    );
    expect(greedy).toEqual([best]);
    expect(new Set([...p0!, ...k1!, ...m1!])).toEqual(new Set([best]));
  });

  it("allows nothing: -1; mask bits past the width are ignored", () => {
    const logits = new Float32Array(50).fill(0);
    logits[49] = -5;
    const mask = new Uint32Array(2).fill(0xffffffff); // bits 50..63 name no token
    const [none, some] = draw({ temperature: 1, topP: 0.9, logits, mask: new Uint32Array(2), seeds: 3 }, { temperature: 1, topP: 0.99, logits, mask, seeds: 500 });
    expect(none).toEqual([-1, -1, -1]);
    expect(Math.max(...some!)).toBeLessThan(50);
  });

  it("the same seed draws the same id", () => {
    const logits = gaussianLogits(4096, 1, 31);
    const c = { temperature: 0.9, topK: 200, topP: 0.9, logits, mask: allowAll(4096), seeds: 200, firstSeed: 77 };
    const [a, b] = draw(c, c);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(20);
  });
});

interface SamplerSources {
  readonly harness: string;
  readonly header: string;
  readonly source: string;
}

/** The harness and sampler as they were at a git revision; undefined (with a warning saying the
 *  comparison is skipped) where the checkout has no history. */
function samplerSourcesAt(revision: string): SamplerSources | undefined {
  try {
    const show = (path: string): string => execFileSync("git", ["show", `${revision}:${path}`], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return { harness: show("test/engines/sampler-harness.cpp"), header: show("native/src/masked_sampler.h"), source: show("native/src/masked_sampler.cpp") };
  } catch {
    console.warn(`sampler.test: git revision ${revision} is not available (no git history?): the comparison with it is skipped`);
    return undefined;
  }
}

/** Compiles a revision's harness with today's flags; returns the executable's path. */
function buildHarnessFrom(sources: SamplerSources): string {
  const dir = mkdtempSync(join(tmpdir(), "pocket-sampler-revision-"));
  writeFileSync(join(dir, "harness.cpp"), sources.harness);
  writeFileSync(join(dir, "masked_sampler.h"), sources.header);
  writeFileSync(join(dir, "masked_sampler.cpp"), sources.source);
  const executable = join(dir, "harness");
  execFileSync(process.env.CXX ?? "g++", [...CXX_FLAGS, `-I${dir}`, join(dir, "harness.cpp"), join(dir, "masked_sampler.cpp"), "-o", executable]);
  return executable;
}

/**
 * The sampler before its memory-speed rewrite (revision e9c114d), built from git with its own
 * harness. Greedy and the choice of the top-k set are the same algorithm, so they must agree
 * exactly. Sampling now computes weights with a vectorized exp (within 2 ulp of the libm expf
 * the old code called), sums them in blocks and picks per block: a seed draws the same id except
 * when its uniform lands within a few ulps of a boundary between two ids' cumulative weights.
 */
const PREVIOUS = "e9c114d";
const previousSources = samplerSourcesAt(PREVIOUS);

describe.skipIf(previousSources === undefined)(`masked sampler: same ids as the previous sampler (${PREVIOUS}) for the same seeds`, () => {
  let previous: string;
  beforeAll(() => {
    previous = buildHarnessFrom(previousSources!);
  });

  const width = 65536;
  const random = mulberry32(7);
  const sparse = new Uint32Array(maskWords(width)).map(() => (random() < 0.05 ? (random() * 2 ** 32) >>> 0 : 0));
  const masks = [allowAll(width), sparse, maskOf(width, [3, 900, 901, 40000])];
  const logitSets = [gaussianLogits(width, 4, 51), gaussianLogits(width, 1, 52), gaussianLogits(width, 0.2, 53)];
  const compare = (options: Options, seeds: number): { same: number; total: number } => {
    const cases = logitSets.flatMap((logits) => masks.map((mask) => ({ ...options, logits, mask, seeds })));
    const ours = run(harness, cases);
    const theirs = run(previous, cases, false);
    let same = 0;
    let total = 0;
    ours.forEach((line, i) => {
      const a = line.split(" ");
      const b = theirs[i]!.split(" ");
      total += a.length;
      same += a.filter((id, j) => id === b[j]).length;
    });
    return { same, total };
  };

  it("greedy and top-k 1 pick exactly the same ids", () => {
    for (const options of [{ temperature: 0 }, { temperature: 1, topK: 1 }]) {
      const { same, total } = compare(options, 5);
      expect(same, JSON.stringify(options)).toBe(total);
    }
  });

  it("temperature, top-k (heap and radix paths) and top-p draw the same id for at least 99.5% of seeds", () => {
    for (const options of [{ temperature: 0.8 }, { temperature: 0.8, topK: 40 }, { temperature: 1.2, topK: 3000 }, { temperature: 0.8, topP: 0.9 }]) {
      const { same, total } = compare(options, 200);
      expect(same / total, JSON.stringify(options)).toBeGreaterThanOrEqual(0.995);
    }
  });
});

/**
 * On x86-64 the bracket split has an AVX-512 version (mask registers, compress) next to the
 * portable one, and with AVX-512 greedy reads partly allowed words as vectors; a harness built
 * with -DPOCKET_X86_DISPATCH=0 has only the portable code. Both must draw the same id for every
 * seed. (Where the machine has no AVX-512, both run the portable code and this checks nothing
 * more than determinism.)
 */
describe("masked sampler: the AVX-512 and portable code draw the same ids", () => {
  let portable: string;
  beforeAll(() => {
    portable = join(mkdtempSync(join(tmpdir(), "pocket-sampler-portable-")), "harness");
    execFileSync(process.env.CXX ?? "g++", [...CXX_FLAGS, "-DPOCKET_X86_DISPATCH=0", `-I${nativeSrc}`, harnessSrc, join(nativeSrc, "masked_sampler.cpp"), "-o", portable]);
  });

  it("greedy, top-p and min-p over open, mostly open and half open masks, flat to peaked logits", () => {
    const width = 65536;
    const random = mulberry32(91);
    const masks = [allowAll(width), maskOf(width, Array.from({ length: width }, (_, id) => id).filter(() => random() < 0.85)), new Uint32Array(maskWords(width)).map(() => (random() * 2 ** 32) >>> 0)];
    const settings = [
      { logits: gaussianLogits(width, 0.3, 92), temperature: 1.5, topP: 0.85 },
      { logits: gaussianLogits(width, 2, 93), temperature: 0.8, topP: 0.9 },
      { logits: gaussianLogits(width, 4, 94), temperature: 0.7, topP: 0.95, minP: 0.01 },
      // Rounded: many ties, which go to the lowest id.
      { logits: gaussianLogits(width, 2, 99).map((x) => Math.round(x * 2) / 2), temperature: 0 },
    ];
    // Disallowed ids far above the allowed ones: a lane read where it is not allowed shows.
    const base = gaussianLogits(width, 2, 100);
    const traps = masks.map((mask) => ({ logits: base.map((x, id) => (allowed(mask, id) ? x : 50 + x)), temperature: 0, mask, seeds: 1 }));
    const cases = [...settings.flatMap((o) => masks.map((mask) => ({ ...o, mask, seeds: 100 }))), ...traps];
    const ours = run(harness, cases);
    expect(ours).toEqual(run(portable, cases));
    traps.forEach((t, i) => expect(allowed(t.mask, Number(ours[settings.length * masks.length + i]))).toBe(true));
  });
});

/**
 * The sampler before mostly open masks were weighed in place and the AVX-512 split (revision
 * cb2545d). Over an all-open mask the candidates, their weights and block sums are the same as
 * a gathered list's, so every seed draws the same id; over a mostly open mask the block sums group
 * the weights differently, so only a uniform landing within rounding of a boundary can differ.
 */
const BEFORE_IN_PLACE = "cb2545d";
const beforeInPlaceSources = samplerSourcesAt(BEFORE_IN_PLACE);

describe.skipIf(beforeInPlaceSources === undefined)(`masked sampler: same ids as before in-place weighing (${BEFORE_IN_PLACE})`, () => {
  let before: string;
  beforeAll(() => {
    before = buildHarnessFrom(beforeInPlaceSources!);
  });

  const width = 65536;
  const logitSets = [gaussianLogits(width, 0.3, 95), gaussianLogits(width, 2, 96), gaussianLogits(width, 4, 97)];
  const options = [{ temperature: 0.8 }, { temperature: 0.8, topP: 0.9 }, { temperature: 1.5, topP: 0.95 }, { temperature: 0.8, topP: 0.95, minP: 0.02 }];
  const casesFor = (mask: Uint32Array): Case[] => logitSets.flatMap((logits) => options.map((o) => ({ ...o, logits, mask, seeds: 150 })));

  it("all ids allowed: every seed draws the same id", () => {
    const cases = casesFor(allowAll(width));
    expect(run(harness, cases)).toEqual(run(before, cases));
  });

  it("a mostly open mask: at least 99.5% of seeds draw the same id", () => {
    const random = mulberry32(98);
    const cases = casesFor(maskOf(width, Array.from({ length: width }, (_, id) => id).filter(() => random() < 0.9)));
    const ours = run(harness, cases).flatMap((line) => line.split(" "));
    const theirs = run(before, cases).flatMap((line) => line.split(" "));
    expect(ours.length).toBe(theirs.length);
    expect(ours.filter((id, i) => id === theirs[i]).length / ours.length).toBeGreaterThanOrEqual(0.995);
  });
});
