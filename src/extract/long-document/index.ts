/** Long documents: chunking, per-chunk extraction in passes on one or more lanes, and the merge into one result. */
export { extractInChunks, passSampling, type ChunkedRun, type SettledChunks } from "./extract-in-chunks.js";
export { splitIntoChunks, type Chunk } from "./chunker.js";
export { mergeChunkOutcomes, type ChunkOutcome, type MergedOutcome } from "./merge.js";
export type { Lanes, Loan } from "./lanes.js";
