/**
 * Runs a list of chunk jobs on one or more lanes (engines): the document's own lane runs jobs one
 * after another, and whenever a job is waiting, an idle lane is borrowed for that one job and
 * handed back after it, so a borrowed engine is never kept from another request for longer than
 * one chunk. Results come back in job order whichever lane finishes first, so the merge sees the
 * same sequence as a run on one lane. The first failure aborts the jobs still running (their own
 * rejections are then ignored) and is what the run throws, once every lane has stopped.
 */
import { linkedAbort } from "../linked-abort.js";

/** A lane borrowed for one job. */
export interface Loan<L> {
  readonly lane: L;
  /** Hands the lane back (to whoever waits for it, or to the idle ones). */
  release(): void;
}

/** Where jobs run: the run's own lane, and idle lanes to borrow for one job each. */
export interface Lanes<L> {
  readonly own: L;
  /** An idle lane for one job, or undefined when none is idle now (asked again after each job). */
  borrow(): Loan<L> | undefined;
}

export interface LaneRun<J, R, L> {
  readonly jobs: readonly J[];
  readonly lanes: Lanes<L>;
  readonly signal?: AbortSignal;
  readonly run: (job: J, lane: L, signal: AbortSignal) => Promise<R>;
  /** Called as each job completes (in completion order), with its position in `jobs`. */
  readonly onDone?: (index: number, result: R) => void;
}

export async function runOnLanes<J, R, L>(o: LaneRun<J, R, L>): Promise<R[]> {
  const results: R[] = [];
  const stop = linkedAbort(o.signal);
  const running = new Set<Promise<void>>();
  let next = 0;
  let failure: { readonly error: unknown } | undefined;

  const runOne = async (lane: L): Promise<void> => {
    const index = next++;
    try {
      stop.signal.throwIfAborted();
      const result = await o.run(o.jobs[index]!, lane, stop.signal);
      results[index] = result;
      o.onDone?.(index, result);
    } catch (error) {
      if (failure) return;
      failure = { error };
      stop.abort(error);
    }
  };
  const waiting = (): boolean => next < o.jobs.length && !failure;
  const track = (work: Promise<void>): void => {
    running.add(work);
    void work.finally(() => running.delete(work));
  };
  /** Starts a job on every idle lane there is while jobs wait. */
  const spread = (): void => {
    for (let loan = waiting() ? o.lanes.borrow() : undefined; loan; loan = waiting() ? o.lanes.borrow() : undefined) {
      const { lane, release } = loan;
      track(runOne(lane).finally(() => {
        release();
        spread();
      }));
    }
  };
  track(
    (async () => {
      while (waiting()) {
        spread();
        if (waiting()) await runOne(o.lanes.own);
      }
    })(),
  );
  try {
    while (running.size > 0) await Promise.all(running);
  } finally {
    stop.release();
  }
  if (failure) throw failure.error;
  return results;
}
