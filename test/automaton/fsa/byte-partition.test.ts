import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refine, refineClasses } from "../../../src/automaton/fsa/index.js";

/** A byte partition with up to `classes` classes, as automata write their classOf. */
const classOf = (classes: number): fc.Arbitrary<Uint8Array> =>
  fc.array(fc.integer({ min: 0, max: classes - 1 }), { minLength: 256, maxLength: 256 }).map((labels) => Uint8Array.from(labels));

/** Partitions with repeats: some contents several times, in distinct arrays and in the same one. */
const partitions = fc
  .tuple(fc.array(classOf(6), { minLength: 1, maxLength: 5 }), fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 12 }))
  .map(([distinct, picks]) => [...distinct, ...picks.map(([i, copy]) => (copy ? distinct[i % distinct.length]!.slice() : distinct[i % distinct.length]!))]);

describe("refine", () => {
  it("puts two bytes in one class exactly when every labeling gives them one label, classes numbered by their least byte", () => {
    fc.assert(
      fc.property(partitions, (labelings) => {
        const { classOf: out, numClasses } = refine(...labelings);
        const signature = (b: number): string => labelings.map((l) => l[b]).join(",");
        const classOfSignature = new Map<string, number>();
        for (let b = 0; b < 256; b++) {
          if (!classOfSignature.has(signature(b))) classOfSignature.set(signature(b), classOfSignature.size);
          expect(out[b]).toBe(classOfSignature.get(signature(b)));
        }
        expect(numClasses).toBe(classOfSignature.size);
      }),
      { numRuns: 200 },
    );
  });
});

describe("refineClasses", () => {
  it("equals refine over the same partitions, in any order and with repeats", () => {
    fc.assert(
      fc.property(partitions, fc.nat(), (labelings, rotation) => {
        const expected = refine(...labelings);
        const k = rotation % labelings.length;
        expect(refineClasses(labelings)).toEqual(expected);
        expect(refineClasses([...labelings.slice(k), ...labelings.slice(0, k)])).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it("stays exact past the bound on remembered contents (1,024), old arrays and new alike", () => {
    const partitionOf = (i: number): Uint8Array => Uint8Array.from({ length: 256 }, (_, b) => (b === i % 256 ? 1 + (i >> 8) : 0));
    const early = partitionOf(3);
    for (let i = 0; i < 1100; i++) expect(refineClasses([partitionOf(i), partitionOf(i)]).numClasses).toBe(2);
    const both = [early, partitionOf(3), partitionOf(3 + 256), partitionOf(700)];
    expect(refineClasses(both)).toEqual(refine(...both));
  });

  it("tells apart partitions that differ in one byte", () => {
    const a = new Uint8Array(256);
    const b = a.slice();
    b[200] = 1;
    expect(refineClasses([a, a.slice(), b]).numClasses).toBe(2);
    expect(refineClasses([a, a.slice()]).numClasses).toBe(1);
  });
});
