/**
 * Typed errors. Every error the SDK throws on purpose is a `PocketExtractError` with a stable
 * `code`, so callers can branch on `err.code` instead of parsing messages. Subclasses add the
 * context that tells the user where the problem is (a file, a JSON pointer, a token id).
 */

export type ErrorCode =
  // vocabulary / tokenizer
  | "TOKENIZER_NOT_FOUND"
  | "TOKENIZER_INVALID"
  | "TOKENIZER_UNSUPPORTED"
  | "VOCABULARY_MISMATCH"
  | "ENCODE_UNAVAILABLE"
  // schema compiler
  | "SCHEMA_INVALID"
  | "SCHEMA_UNSUPPORTED"
  | "SCHEMA_UNSATISFIABLE"
  | "SCHEMA_REF"
  | "SCHEMA_TOO_LARGE"
  | "SCHEMA_TOO_COMPLEX"
  | "PATTERN_UNSUPPORTED"
  | "PATTERN_INVALID"
  | "GRAMMAR_SYNTAX"
  | "AUTOMATON_TOO_LARGE"
  // mask engine / matcher
  | "TOKEN_UNKNOWN"
  | "TOKEN_REJECTED"
  | "MATCHER_COMPLETE"
  | "MASK_SIZE"
  | "MASK_BUDGET"
  | "ROLLBACK_RANGE"
  | "COMPLETION_UNAVAILABLE"
  // serialized grammars (loadCompiledGrammar, cacheDir)
  | "GRAMMAR_FILE_INVALID"
  | "GRAMMAR_FILE_MISMATCH"
  // engines and decoding
  | "ENGINE_UNAVAILABLE"
  | "ENGINE_LOAD"
  | "ENGINE_FAILED"
  | "ENGINE_DISPOSED"
  | "MODEL_NOT_FOUND"
  | "MODEL_INVALID"
  | "ABORTED"
  | "POOL_FULL"
  | "CONTEXT_OVERFLOW"
  | "LOGITS_INVALID"
  // extraction
  | "TEXT_EMPTY"
  | "TEXT_INVALID"
  | "TEXT_TOO_LONG"
  | "OPTION_INVALID"
  // verification of the model's output
  | "OUTPUT_TOO_COMPLEX"
  // command line: files, resume, locking
  | "FILE_NOT_FOUND"
  | "FILE_EXISTS"
  | "FILE_IS_DIRECTORY"
  | "FILE_NOT_REGULAR"
  | "FILE_ACCESS"
  | "FILE_TOO_LARGE"
  | "FILE_IO"
  | "DISK_FULL"
  | "PATH_CONFLICT"
  | "OUTPUT_LOCKED"
  | "RESUME_MISMATCH"
  | "RESUME_INVALID"
  | "SCHEMA_EXPORT"
  // a failure that was not one of the above (a bug or a foreign error; `cause` holds it)
  | "INTERNAL";

/**
 * The one error type pocket-extract throws: a stable `code` (see ErrorCode), a message, and where it
 * applies the schema pointer or keyword.
 */
export class PocketExtractError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** `err` as a PocketExtractError: itself when it is one, else an INTERNAL error wrapping it (as
 *  `cause`) with its message, so every error a batch reports carries a `code`. */
export function asPocketExtractError(err: unknown): PocketExtractError {
  if (err instanceof PocketExtractError) return err;
  return new PocketExtractError("INTERNAL", err instanceof Error ? err.message : String(err), { cause: err });
}

/** A problem located in a schema: `keyword` is the JSON Schema keyword, `pointer` a JSON pointer. */
export class SchemaError extends PocketExtractError {
  readonly keyword: string | undefined;
  readonly pointer: string;

  constructor(
    code: ErrorCode,
    message: string,
    where: { keyword?: string; pointer: string },
    options?: { cause?: unknown },
  ) {
    super(code, `${message} (at ${where.pointer || "#"}${where.keyword ? `, keyword "${where.keyword}"` : ""})`, options);
    this.keyword = where.keyword;
    this.pointer = where.pointer;
  }
}

/** A problem with a file the user pointed us at (tokenizer, model, a CLI input or output). */
export class FileError extends PocketExtractError {
  readonly file: string;

  constructor(code: ErrorCode, file: string, message: string, options?: { cause?: unknown }) {
    super(code, `${file}: ${message}`, options);
    this.file = file;
  }
}

/** What a serialized grammar failed: its framing (magic, length, checksum: GRAMMAR_FILE_INVALID)
 *  or what it was made for (format version, package version, vocabulary, schema and options,
 *  byte order: GRAMMAR_FILE_MISMATCH). */
export type GrammarFileCheck = "magic" | "length" | "checksum" | "format-version" | "package-version" | "vocabulary" | "source" | "byte-order";

/**
 * A serialized grammar that cannot be used as it is: corrupt or truncated bytes, or bytes made by
 * another format or package version, for another vocabulary, or for another schema or options.
 * `check` says which; `expected` and `found` what differed. Never a wrong mask: recompile the
 * schema (a `cacheDir` does so by itself and overwrites the file).
 */
export class GrammarFileError extends PocketExtractError {
  readonly check: GrammarFileCheck;
  readonly expected: string | undefined;
  readonly found: string | undefined;

  constructor(check: GrammarFileCheck, message: string, differ?: { expected: string; found: string }) {
    const framing = check === "magic" || check === "length" || check === "checksum";
    const detail = differ ? ` (expected ${differ.expected}, found ${differ.found})` : "";
    super(framing ? "GRAMMAR_FILE_INVALID" : "GRAMMAR_FILE_MISMATCH", `serialized grammar: ${message}${detail}; compile the schema again (and serialize it again to replace the bytes)`);
    this.check = check;
    this.expected = differ?.expected;
    this.found = differ?.found;
  }
}

/** An option outside its allowed range: `option` is its name, `value` what was given, `allowed`
 *  the range in words (e.g. "an integer from 1 to 65536"). */
export class OptionError extends PocketExtractError {
  readonly option: string;
  readonly value: unknown;
  readonly allowed: string;

  constructor(option: string, value: unknown, allowed: string) {
    super("OPTION_INVALID", `${option} must be ${allowed}, got ${describeValue(value)}`);
    this.option = option;
    this.value = value;
    this.allowed = allowed;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) + " (a string)";
  if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) return String(value);
  return `a ${Array.isArray(value) ? "array" : typeof value}`;
}
