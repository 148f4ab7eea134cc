/**
 * The child process `npm run fuzz` runs cases in: loads the 64K fixture vocabulary once, then runs
 * each case it is sent and answers with its outcome. The parent watches it from outside, so a case
 * that hangs, blows up memory or kills the process is a finding, not the end of the run.
 */
import { ensureFixtureTokenizer } from "../fixtures/vocab/index.js";
import { clearSharedAutomata } from "../src/automaton/index.js";
import { loadTokenizerJson } from "../src/tokens/index.js";
import { runCase, type Target } from "./targets.js";

export interface CaseRequest {
  readonly target: Target;
  readonly seed: number;
}

const vocabulary = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: 65536 });
process.on("message", (request: CaseRequest) => {
  void runCase(request.target, request.seed, vocabulary).then((outcome) => {
    clearSharedAutomata(); // no case leans on the automata an earlier one built
    process.send!(outcome);
  });
});
process.send!("ready");
