/**
 * A scripted engine that records what each session was given: its prompt and its sampling
 * options. Tests of options that must reach the engine (CLI flags, retries) read them back.
 */
import type { Engine, SamplingOptions } from "../../src/engines/engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";

export interface RecordingEngine {
  readonly engine: Engine;
  readonly prompts: string[];
  readonly sampling: (SamplingOptions | undefined)[];
}

/** `answer` gives the output for the n-th prompt (1-based) and the prompt itself. */
export function recordingEngine(vocabulary: Vocabulary, answer: (n: number, prompt: string) => string, contextLength?: number): RecordingEngine {
  const prompts: string[] = [];
  const sampling: (SamplingOptions | undefined)[] = [];
  const inner = new ScriptedEngine({
    vocabulary,
    contextLength,
    script: (prompt) => {
      prompts.push(prompt);
      return answer(prompts.length, prompt);
    },
  });
  const engine: Engine = {
    name: inner.name,
    vocabulary: inner.vocabulary,
    contextLength: inner.contextLength,
    createSession: (options) => {
      sampling.push(options?.sampling);
      return inner.createSession(options);
    },
    dispose: () => inner.dispose(),
  };
  return { engine, prompts, sampling };
}
