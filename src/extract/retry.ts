/**
 * What each generation of one extraction asks (`retries`, `retryMode`): the first prompt, then,
 * after a result that is not ok, either the same prompt resampled with the next seed or, in
 * feedback mode, the prompt with the previous output and its issues added (prompt/feedback.ts),
 * decoded under the same grammar and sampling. Also each attempt's entry in the result's log.
 */
import type { SamplingOptions } from "../engines/index.js";
import type { Feedback } from "../prompt/index.js";
import { MISSING_REQUIRED } from "./verify-output.js";
import type { AttemptReport, ExtractOptions, ExtractResult, RetryMode } from "./types.js";

/** Temperature of a resampling retry when the caller set none (greedy would repeat the output). */
const RESAMPLE_TEMPERATURE = 0.7;

export interface Ask {
  readonly prompt: AttemptReport["prompt"];
  readonly sampling: SamplingOptions | undefined;
  /** The re-ask's feedback, in feedback mode. */
  readonly feedback?: Feedback;
}

/** The ask of generation `attempt` (0 for the first), after the previous attempt's result. */
export function askFor(attempt: number, previous: ExtractResult<unknown> | undefined, o: ExtractOptions): Ask {
  if (previous === undefined) return { prompt: "first", sampling: o.sampling };
  const mode: RetryMode = o.retryMode ?? "resample";
  return mode === "feedback" ? { prompt: "feedback", sampling: o.sampling, feedback: feedbackOf(previous) } : resampled(attempt, o.sampling);
}

/** The first prompt again with the next seed (also a feedback retry whose re-ask does not fit the context). */
export function resampled(attempt: number, sampling: SamplingOptions | undefined): Ask {
  return { prompt: "resample", sampling: { temperature: RESAMPLE_TEMPERATURE, ...sampling, seed: (sampling?.seed ?? 0) + attempt } };
}

export function attemptReport(attempt: number, ask: Ask, result: ExtractResult<unknown>): AttemptReport {
  return { attempt: attempt + 1, prompt: ask.prompt, ok: result.ok, raw: result.raw, issues: result.issues, cutShort: result.stats.cutShort };
}

function feedbackOf(result: ExtractResult<unknown>): Feedback {
  return {
    previous: result.raw,
    cutShort: result.stats.cutShort,
    problems: result.issues.map((i) => ({ pointer: i.pointer, message: i.message, missingRequired: i.message === MISSING_REQUIRED })),
  };
}
