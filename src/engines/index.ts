/**
 * The front of src/engines: the interface, the model loader, the pure-TS test engines, and the
 * engine and sampling option checks the extraction layer runs before it loads a model.
 */
export type { Engine, EngineSession, SamplingOptions, SessionOptions } from "./engine.js";
export type { ChatTemplate, ChatTurns, PromptSegment } from "../tokens/index.js";
export { loadEngine, type LoadEngineOptions } from "./load.js";
export { RandomEngine, ScriptedEngine, type RandomEngineOptions, type ScriptedEngineOptions } from "./testing/index.js";
export { checkEngineOptions } from "./engine-options.js";
export { checkSampling } from "./native-shared/sampling.js";
