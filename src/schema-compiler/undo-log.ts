/**
 * Undo records of the maps and sets a compilation changes (CompileContext.checkpoint): taking a
 * checkpoint is O(1) and going back to it costs the changes made since, where copying the maps at
 * each checkpoint cost every rule of the grammar at each oneOf or dependency rewriting attempted
 * (a dozen times ~700 rules in the WashingtonPost schemas).
 */
export class UndoLog {
  private readonly undo: (() => void)[] = [];
  /** Nothing is recorded before the first checkpoint (most compilations take none); after it,
   *  everything is, since a checkpoint is never released (a compilation is short-lived). */
  private on = false;

  /** True once a checkpoint exists: changes are to be recorded. */
  get recording(): boolean {
    return this.on;
  }

  /** A point to roll back to. */
  mark(): number {
    this.on = true;
    return this.undo.length;
  }

  /** Undoes every change recorded since `mark`, latest first. */
  rollBack(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()!();
  }

  record(undo: () => void): void {
    this.undo.push(undo);
  }
}

/** A Map whose changes are recorded in `log`. A key deleted and then restored by a roll back
 *  comes back last in iteration order. */
export class LoggedMap<K, V> extends Map<K, V> {
  constructor(private readonly log: UndoLog) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.log.recording) {
      if (super.has(key)) {
        const before = super.get(key) as V;
        this.log.record(() => super.set(key, before));
      } else {
        this.log.record(() => super.delete(key));
      }
    }
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false;
    if (this.log.recording) {
      const before = super.get(key) as V;
      this.log.record(() => super.set(key, before));
    }
    return super.delete(key);
  }

  override clear(): void {
    for (const key of [...super.keys()]) this.delete(key);
  }
}

/** A Set whose additions and deletions are recorded in `log`. */
export class LoggedSet<T> extends Set<T> {
  constructor(private readonly log: UndoLog) {
    super();
  }

  override add(value: T): this {
    if (this.log.recording && !super.has(value)) this.log.record(() => super.delete(value));
    return super.add(value);
  }

  override delete(value: T): boolean {
    if (!super.has(value)) return false;
    if (this.log.recording) this.log.record(() => super.add(value));
    return super.delete(value);
  }

  override clear(): void {
    for (const value of [...super.values()]) this.delete(value);
  }
}
