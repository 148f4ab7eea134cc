/**
 * The pure-TypeScript test engines (scripted and seeded-random), a front of their own inside
 * src/engines so pocket-extract/testing imports them without the model loaders.
 */
export { RandomEngine, type RandomEngineOptions } from "./random-engine.js";
export { ScriptedEngine, type ScriptedEngineOptions } from "./scripted-engine.js";
