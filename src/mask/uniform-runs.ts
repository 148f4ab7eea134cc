/**
 * Uniform runs: how many bytes of some byte groups (byte-groups.ts) a state provably survives, in
 * any order, without walking them. A state's run groups are the groups whose bytes all lead to
 * one same state, its run successor (of several such successors, the one most bytes lead to);
 * from there the run goes on for as long as every state on the chain still sends all of those
 * groups to a single successor. Any string of n bytes from the run groups is then alive, for
 * every n up to the run's length: it ends at the chain's n-th state. A counted class such as
 * `[0-9a-zA-Z_-]{1,255}` is such a chain (one state per count), and so is a bounded string's
 * ASCII text; a plain loop is one too, of unbounded length (a chain that comes back to itself).
 *
 * The mask walk (mask-computer.ts) takes a trie subtree whole when its bytes are all in the run
 * groups of the state above it and its height is within the run: its tokens are accepted without
 * visiting (or building the states of) the thousands of nodes a long pattern's subtree can hold.
 */
import { grow } from "../automaton/index.js";
import { BYTE_GROUP, GROUP_FIRST_BYTE, NUM_BYTE_GROUPS, RUN_GROUPS } from "./byte-groups.js";
import type { MaskAutomaton } from "./mask-types.js";
import { MAX_SUBTREE_HEIGHT } from "./subtree-groups.js";

/** Not computed yet (per state). */
const NOT_DESCRIBED = -2;
/** describe's scratch: a group with a dead byte or bytes leading to different states, and a
 *  group none of whose bytes is stepped yet. */
const MIXED = -1;
const UNSEEN = -2;
/** The bytes of the run groups lie in this range (printable ASCII); the quote and the backslash
 *  in it are groups of their own, left out (MIXED) before any step. */
const RUN_FIRST = 0x20;
const RUN_LAST = 0x7e;

function isRunGroup(g: number): boolean {
  return (RUN_GROUPS[g >> 5]! & (1 << (g & 31))) !== 0;
}

/** The run length of a chain that comes back to its start: no subtree is too tall for it. */
const UNBOUNDED = 0x7fff;

export class UniformRuns {
  /** Per state: its run successor (-1: no run groups), NOT_DESCRIBED before it is computed. */
  private successor = new Int32Array(64).fill(NOT_DESCRIBED);
  /** Per state: its run groups, two words (groups 0-31, 32-63). */
  private groups = new Int32Array(128);
  /** Per state: a run length proven so far, and whether it is the whole run (the chain broke). */
  private proven = new Int16Array(64);
  private whole = new Uint8Array(64);
  /** covers' scratch: the chain's states, start first. */
  private readonly chain = new Int32Array(MAX_SUBTREE_HEIGHT);
  /** describe's scratch: per group, the state all its bytes lead to (or MIXED / UNSEEN). */
  private readonly groupNext = new Int32Array(NUM_BYTE_GROUPS);

  constructor(private readonly automaton: MaskAutomaton) {}

  /**
   * True when every string of at most `height` bytes, all in the groups `low`/`high`, is alive
   * from `state`; a height of MAX_SUBTREE_HEIGHT (subtree-groups.ts) stands for any taller one,
   * which only a state looping on its run groups covers. Builds the states of the chain it
   * follows (at most `height` of them).
   */
  covers(state: number, low: number, high: number, height: number): boolean {
    if ((low & ~RUN_GROUPS[0]) !== 0 || (high & ~RUN_GROUPS[1]) !== 0) return false;
    if (!this.described(state) && !this.mayRead(state, low, high)) return false;
    this.describe(state);
    if ((low & ~this.groups[state * 2]!) !== 0 || (high & ~this.groups[state * 2 + 1]!) !== 0) return false;
    if (height >= MAX_SUBTREE_HEIGHT) return this.successor[state] === state;
    if (this.proven[state]! >= height) return true;
    if (this.whole[state] === 1) return false;
    const runLow = this.groups[state * 2]!;
    const runHigh = this.groups[state * 2 + 1]!;
    const chain = this.chain;
    let at = state;
    let length = 0;
    let broke = false;
    while (length < height) {
      this.describe(at);
      const next = this.successor[at]!;
      // The run goes on while this chain state still sends all the start's groups to one state.
      if (next < 0 || (runLow & ~this.groups[at * 2]!) !== 0 || (runHigh & ~this.groups[at * 2 + 1]!) !== 0) {
        broke = true;
        break;
      }
      chain[length++] = at;
      // Back at the start: the run never ends.
      if (next === state) {
        length = UNBOUNDED;
        break;
      }
      at = next;
    }
    // A chain state with the start's own run groups starts the same chain from its position:
    // note its length too, or each node down a tall subtree would follow the chain again.
    const steps = Math.min(length, height);
    for (let i = 0; i < steps; i++) {
      const s = chain[i]!;
      if (this.groups[s * 2] !== runLow || this.groups[s * 2 + 1] !== runHigh) continue;
      this.proven[s] = Math.max(this.proven[s]!, length === UNBOUNDED ? UNBOUNDED : length - i);
      if (broke) this.whole[s] = 1;
    }
    return length >= height;
  }

  private described(state: number): boolean {
    return state < this.successor.length && this.successor[state] !== NOT_DESCRIBED;
  }

  /** Whether `state` reads one byte of each group of `low`/`high` (what a run over them needs):
   *  most states that read no run are told apart by a step or two, with no description. */
  private mayRead(state: number, low: number, high: number): boolean {
    const { automaton } = this;
    for (let g = 0; g < NUM_BYTE_GROUPS; g++) {
      const inSet = g < 32 ? (low >>> g) & 1 : (high >>> (g - 32)) & 1;
      if (inSet === 1 && !automaton.canStepClass(state, automaton.classOf[GROUP_FIRST_BYTE[g]!]!)) return false;
    }
    return true;
  }

  /** Computes `state`'s run groups and successor once. */
  private describe(state: number): void {
    this.ensureCapacity(state + 1);
    if (this.successor[state] !== NOT_DESCRIBED) return;
    const { automaton, groupNext } = this;
    groupNext.fill(UNSEEN);
    // Dead bytes first, without building states: most groups of most states die at once.
    for (let b = RUN_FIRST; b <= RUN_LAST; b++) {
      const g = BYTE_GROUP[b]!;
      if (!isRunGroup(g) || !automaton.canStepClass(state, automaton.classOf[b]!)) groupNext[g] = MIXED;
    }
    for (let b = RUN_FIRST; b <= RUN_LAST; b++) {
      const g = BYTE_GROUP[b]!;
      const known = groupNext[g]!;
      if (known === MIXED) continue;
      const next = automaton.step(state, b);
      groupNext[g] = known === UNSEEN || known === next ? next : MIXED;
    }
    // The successor most bytes lead to, by whole groups.
    let best = -1;
    let bestBytes = 0;
    for (let g = 0; g < NUM_BYTE_GROUPS; g++) {
      const next = groupNext[g]!;
      if (next < 0 || next === best) continue;
      let bytes = 0;
      for (let b = RUN_FIRST; b <= RUN_LAST; b++) if (groupNext[BYTE_GROUP[b]!] === next) bytes++;
      if (bytes > bestBytes) [best, bestBytes] = [next, bytes];
    }
    let low = 0;
    let high = 0;
    for (let g = 0; g < NUM_BYTE_GROUPS; g++) {
      if (best < 0 || groupNext[g] !== best) continue;
      if (g < 32) low |= 1 << g;
      else high |= 1 << (g - 32);
    }
    this.successor[state] = best;
    this.groups[state * 2] = low;
    this.groups[state * 2 + 1] = high;
  }

  private ensureCapacity(n: number): void {
    if (n <= this.successor.length) return;
    const size = Math.max(n, this.successor.length * 2);
    const successor = grow(this.successor, size);
    successor.fill(NOT_DESCRIBED, this.successor.length);
    this.successor = successor;
    this.groups = grow(this.groups, size * 2);
    this.proven = grow(this.proven, size);
    this.whole = grow(this.whole, size);
  }
}
