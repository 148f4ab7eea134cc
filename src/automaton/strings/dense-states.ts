/**
 * Dense ids for the states of a string automaton computed on demand (bounded-string.ts,
 * counted-string.ts), whose natural numbering (a count up to maxLength times a few places) is
 * sparse and can pass 2^31, while the grammar automaton keeps rule states in int32 arrays. Id 0
 * is the opening-quote state and id 1 the closing one; the others are made in the order
 * documents reach them, so ids stay as few as the states visited.
 */
export const OPEN = 0;
export const CLOSE = 1;

export class DenseStates {
  private readonly ids = new Map<number, number>();
  /** Natural key per id (none for the two quote states). */
  private readonly keys: number[] = [-1, -1];

  /** States made so far. */
  get size(): number {
    return this.keys.length;
  }

  /** The id of the state whose natural key is `key` (a non-negative safe integer). */
  id(key: number): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.push(key) - 1;
      this.ids.set(key, id);
    }
    return id;
  }

  /** The natural key of a state other than the two quote states. */
  key(id: number): number {
    return this.keys[id]!;
  }
}
