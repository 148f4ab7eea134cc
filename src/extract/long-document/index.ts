/** Long documents: chunking, per-chunk extraction in passes, and the merge into one result. */
export { extractInChunks, passSampling, type ChunkedRun } from "./extract-in-chunks.js";
export { splitIntoChunks, type Chunk } from "./chunker.js";
export { mergeChunkOutcomes, type ChunkOutcome, type MergedOutcome } from "./merge.js";
