/** Test helpers for the mask walk's shortcuts: sampled states, and masks with a shortcut on and off. */
import { expect } from "vitest";
import { mulberry32 } from "../../src/engines/testing/prng.js";
import type { TokenGrammar } from "../../src/mask/index.js";
import { MaskComputer, type MaskComputerOptions } from "../../src/mask/mask-computer.js";
import { nthSetBit, popcount } from "../../src/util/bitset.js";
import { firstDifference } from "./token-walk.js";

/** States a walk of random allowed tokens visits, inside strings as often as the walk stays there. */
export function sampledStates(grammar: TokenGrammar, seed: number, walks: number, steps: number): number[] {
  const random = mulberry32(seed);
  const states = new Set<number>();
  const mask = new Uint32Array(grammar.maskWords);
  for (let w = 0; w < walks; w++) {
    const matcher = grammar.matcher();
    for (let i = 0; i < steps && !matcher.isClosed(); i++) {
      states.add(matcher.state);
      matcher.fillMask(mask);
      const allowed = popcount(mask);
      if (allowed === 0) break;
      const id = nthSetBit(mask, Math.floor(random() * allowed));
      if (grammar.index.eosIds.includes(id) || !matcher.accept(id)) break;
    }
  }
  return [...states];
}

/**
 * Expects the mask of each of `states` to be the same with every shortcut on as with `off`, and
 * counts the states where the shortcuts visited fewer than `share` of the trie nodes the walk
 * with `off` visited (how states that took them are told apart).
 */
export function compareShortcut(grammar: TokenGrammar, off: MaskComputerOptions, states: readonly number[], label: string, share: number): { taken: number; others: number } {
  const withShortcut = new MaskComputer(grammar.automaton, grammar.index);
  const without = new MaskComputer(grammar.automaton, grammar.index, off);
  let taken = 0;
  for (const state of states) {
    const a = new Uint32Array(grammar.maskWords);
    const b = new Uint32Array(grammar.maskWords);
    withShortcut.compute(state, a);
    without.compute(state, b);
    expect(firstDifference(a, b), `${label}, state ${state}`).toBe(-1);
    if (withShortcut.lastVisited < without.lastVisited * share) taken++;
  }
  return { taken, others: states.length - taken };
}
