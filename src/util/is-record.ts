/**
 * The one "is this a plain JSON object?" test: an object that is neither null nor an array.
 * JSON Schema nodes, parsed JSON values and option bags are all checked with it.
 */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
