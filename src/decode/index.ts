/** Public face of decoding: the engine-agnostic constrained generation loop. */
export { DEFAULT_MAX_TOKENS, generate, type GenerateOptions, type GenerateResult, type GenerateStats, type StopReason } from "./generate.js";
export { DraftRecord, type SpeculativeOptions } from "./speculative.js";
