/**
 * Memory readings for engines we cannot introspect: XGrammar's WASM heap lives outside the JS
 * heap and shows up in `process.memoryUsage().external`. Readings are taken after a full GC
 * (enabled at runtime through V8 flags, so the npm script needs no `--expose-gc`). A WASM heap
 * grows in pages and never shrinks, so a delta is what the heap had to grow, not an exact size.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** `external` memory after a full garbage collection. */
export function externalBytes(): number {
  gc();
  return process.memoryUsage().external;
}
