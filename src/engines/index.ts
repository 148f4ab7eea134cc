/** Public face of the engines: the interface, the model loader, and the pure-TS test engines. */
export type { Engine, EngineSession, SamplingOptions, SessionOptions } from "./engine.js";
export type { ChatTemplate, ChatTurns, PromptSegment } from "../tokens/index.js";
export { loadEngine, type LoadEngineOptions } from "./load.js";
export { RandomEngine, type RandomEngineOptions } from "./testing/random-engine.js";
export { ScriptedEngine, type ScriptedEngineOptions } from "./testing/scripted-engine.js";
