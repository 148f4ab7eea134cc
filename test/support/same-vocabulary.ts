/** Id-by-id comparison of an engine's vocabulary with the 64K fixture's: bytes, special flags, eos ids. */
import { expect } from "vitest";
import type { Vocabulary } from "../../src/tokens/index.js";

export function expectSameVocabulary(own: Vocabulary, fixture: Vocabulary): void {
  expect(own.width).toBe(fixture.width);
  let compared = 0;
  const specialDiffers: number[] = [];
  for (let id = 0; id < fixture.width; id++) {
    const a = own.bytes(id);
    const b = fixture.bytes(id);
    if (a.length !== b.length || !a.every((x, i) => x === b[i])) {
      expect.fail(`token ${id}: engine ${JSON.stringify(Buffer.from(a).toString("latin1"))}, fixture ${JSON.stringify(Buffer.from(b).toString("latin1"))}`);
    }
    if (own.isSpecial(id) !== fixture.isSpecial(id)) specialDiffers.push(id);
    compared++;
  }
  expect(compared).toBe(fixture.width);
  expect(specialDiffers, "ids whose special flag differs from the fixture's (every added token is special there)").toEqual([]);
  expect([...own.eosIds].sort()).toEqual([...fixture.eosIds].sort());
}
