/**
 * pocket-extract/testing: what a user's property-based suite imports to test code that consumes
 * extraction results, without a model. `arbitrary` generates exactly the outputs the extraction
 * grammar allows; `arbitraryResult` whole results with every field status; `fakeExtractor`
 * stands in for an Extractor; the test engines run the real `extract()` path deterministically.
 * Needs fast-check (an optional peer dependency of pocket-extract).
 */
export { arbitrary, type ArbitraryOptions } from "./arbitrary.js";
export { arbitraryResult, type ArbitraryResultOptions } from "./arbitrary-result.js";
export { fakeExtractor, type FakeAnswer, type FakeCall, type FakeExtractor, type FakeExtractorOptions } from "./fake-extractor.js";
// Through the test engines' own front, not engines/index.js, so the testing bundle does not pull in the model loaders.
export { RandomEngine, ScriptedEngine, type RandomEngineOptions, type ScriptedEngineOptions } from "../engines/testing/index.js";
