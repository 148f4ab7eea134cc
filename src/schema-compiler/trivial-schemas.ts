/**
 * Schemas whose verdict is the same for every value, as a syntactic look tells (annotations
 * aside): `true`, `{}`, `{description: ...}` accept everything; `false`, `{not: {}}` nothing.
 */

import { isAnnotationKeyword, isRecord } from "../schema/index.js";

export const acceptsEverything = (s: unknown): boolean => s === true || (isRecord(s) && Object.keys(s).every(isAnnotationKeyword));

export const rejectsEverything = (s: unknown): boolean =>
  s === false || (isRecord(s) && Object.keys(s).every((k) => k === "not" || isAnnotationKeyword(k)) && "not" in s && acceptsEverything(s.not));
