/** A copy of `array` with room for `size` items (the rest zero): the per-state tables that grow
 *  as states are built. */
export function grow<T extends Int32Array | Int16Array | Uint8Array>(array: T, size: number): T {
  const out = new (array.constructor as new (n: number) => T)(size);
  out.set(array);
  return out;
}
