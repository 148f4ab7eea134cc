/**
 * The llama.cpp engine (GGUF models through the native addon) and GGUF vocabulary reading.
 */
export { createLlamaEngine, type LlamaEngine, type LlamaEngineOptions } from "./engine.js";
export { readGgufVocabulary } from "./gguf-vocabulary.js";
export { readGgufHeader, type GgufHeader, type GgufTensorInfo, type GgufValue } from "./gguf.js";
