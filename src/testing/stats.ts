/**
 * Plausible decode statistics for a synthetic result: token counts from the output's byte length
 * (about 3 UTF-8 bytes per token for this vocabulary), a share of them grammar-forced, and
 * timings from a per-token decode cost. Apps read these for logging and budgets; the numbers only
 * need to be consistent with each other, not measured.
 */
import type { StopReason } from "../decode/index.js";
import type { ExtractStats } from "../extract/index.js";

const BYTES_PER_TOKEN = 3;
const PROMPT_OVERHEAD_TOKENS = 150;
const PREFILL_MS_PER_TOKEN = 0.3;
const MASK_MS_PER_STEP = 0.05;

export interface StatsSpec {
  readonly rawBytes: number;
  readonly textLength: number;
  readonly stopReason: StopReason;
  /** Bytes written by budget-aware completion (stopReason "budget"). */
  readonly completedBytes: number;
  /** Percent of the model-written tokens that the grammar forced (0..100). */
  readonly forcedPercent: number;
  readonly msPerToken: number;
}

export function plausibleStats(s: StatsSpec): ExtractStats {
  const tokensCompleted = Math.ceil(s.completedBytes / BYTES_PER_TOKEN);
  const written = Math.max(1, Math.ceil(s.rawBytes / BYTES_PER_TOKEN) - tokensCompleted);
  const tokensForced = Math.floor((written * s.forcedPercent) / 100);
  const tokensSampled = written - tokensForced;
  const promptTokens = PROMPT_OVERHEAD_TOKENS + s.textLength;
  const prefillMs = promptTokens * PREFILL_MS_PER_TOKEN;
  const engineMs = prefillMs + tokensSampled * s.msPerToken;
  const maskMs = tokensSampled * MASK_MS_PER_STEP;
  return {
    tokensSampled,
    tokensForced,
    tokensCompleted,
    tokensDrafted: 0,
    tokensAccepted: 0,
    forwardPasses: 1 + tokensSampled,
    maskMs,
    engineMs,
    totalMs: engineMs + maskMs,
    timeToFirstTokenMs: tokensSampled > 0 ? prefillMs + s.msPerToken : undefined,
    stopReason: s.stopReason,
    promptTokens,
    compileMs: 0,
    cutShort: s.stopReason === "budget",
    attempts: 1,
  };
}
