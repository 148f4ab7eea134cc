/**
 * The MNN engine (MNN model directories through the native MNN addon) and the directory reader.
 */
export { createMnnEngine, type MnnEngine, type MnnEngineOptions } from "./engine.js";
export { readMnnModelDir, type MnnModelDir } from "./model-dir.js";
