/** Every array of length 0..maxLength over `pool` (exhaustive instances for array keywords). */
export function arraysOver(pool: readonly unknown[], maxLength: number): unknown[][] {
  let layer: unknown[][] = [[]];
  const out: unknown[][] = [[]];
  for (let len = 1; len <= maxLength; len++) {
    layer = layer.flatMap((a) => pool.map((v) => [...a, v]));
    out.push(...layer);
  }
  return out;
}
