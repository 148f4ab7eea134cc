/**
 * Backend-neutral pieces of the native engines (llama.cpp, MNN): the cached-context engine and
 * its sessions, sampling option checks, native error codes, and build manifest lookup.
 */
export { CachedContextEngine, type CachedContextEngineOptions, type NativeContext } from "./cached-context-engine.js";
export { findNativeManifest } from "./manifest.js";
export { nativeErrorCode, typedNativeError, type NativeErrorCode } from "./native-error.js";
export { checkSampling } from "./sampling.js";
