/** An ExtractResult without its wall-clock timings: what two runs of one extraction must share. */
import type { ExtractResult } from "../../src/index.js";

export function timeless(r: ExtractResult<unknown>): unknown {
  const { totalMs, maskMs, engineMs, timeToFirstTokenMs, compileMs, ...stats } = r.stats;
  void [totalMs, maskMs, engineMs, timeToFirstTokenMs, compileMs];
  return { ...r, stats };
}
