/**
 * The leaf helpers every layer may use (bit sets, LRU cache, min-heap, option checks, language and
 * word-character tests, exact decimals, JSON pointers, the one `isRecord`, `mapDefined`, async disposal). Nothing here knows
 * about grammars, schemas or models.
 */
export { ASYNC_DISPOSE } from "./async-dispose.js";
export { forEachBit, hasBit, nthSetBit, popcount, setBit, setRange, wordsFor } from "./bitset.js";
export { checkInteger, checkNumber } from "./check-option.js";
export { decimalDigits, exactDecimal, isDecimalMultiple, type ExactDecimal } from "./decimal.js";
export { isRecord } from "./is-record.js";
export { fromPointer, toPointer, type JsonPath } from "./json-pointer.js";
export { CJK_SHARE_FOR_ZH, detectLanguage, type PromptLanguage } from "./language.js";
export { LruCache } from "./lru.js";
export { mapDefined } from "./map-defined.js";
export { MinHeap } from "./min-heap.js";
export { isWordCodePoint } from "./word-chars.js";
