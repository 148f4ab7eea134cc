/** Extraction defaults, in one place for the extractor and everything that mirrors it. */

/**
 * Bound for strings without `maxLength`, in characters. Each allowed character of a bounded string
 * costs automaton states (and compile time): 200 covers names, addresses and titles while keeping
 * a typical schema's compile in the tens of milliseconds.
 */
export const DEFAULT_MAX_STRING_LENGTH = 200;
