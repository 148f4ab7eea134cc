/**
 * MaskBench for one schema file: compile (JSON Schema semantics, flexible whitespace), run every
 * test instance token by token through a fresh matcher twice (first pass on cold caches, second
 * pass warm, same compiled grammar) and classify the outcome like the benchmark does. Typed
 * `PocketExtractError`s from the compiler are compile errors; any other exception is a crash.
 */
import { clearSharedAutomata } from "../../src/automaton/index.js";
import { compileGrammar, type CompiledGrammar, type CompileGrammarOptions } from "../../src/mask/index.js";
import { PocketExtractError, SchemaError } from "../../src/errors.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import type { MaskbenchFile } from "./corpus.js";
import { FORMAT_NOT_ENFORCED, type CompileReport } from "../../src/schema-compiler/index.js";
import { DeadlineExceeded, driveMatcher, type DriveOutcome } from "./drive.js";
import { orderVerdict } from "./key-order.js";
import { Samples } from "./stats.js";

export type SchemaStatus = "pass" | "fail" | "compile-error" | "timeout" | "crash";

export interface ErrorInfo {
  /** Where it happened: compile, tokenize or match. */
  readonly stage: string;
  /** PocketExtractError code, or the exception's class name for crashes. */
  readonly code: string;
  readonly keyword?: string;
  readonly pointer?: string;
  readonly message: string;
  readonly stack?: string;
}

export interface TestFailure {
  readonly index: number;
  readonly description: string;
  readonly tokens: number;
  /** Token index refused, or -1 when every token was taken but the document was incomplete. */
  readonly at: number;
  /** Text accepted before the refused token, and the refused token (decoded). */
  readonly before?: string;
  readonly token?: string;
  readonly text: string;
}

export interface SchemaOutcome {
  readonly file: string;
  readonly status: SchemaStatus;
  readonly tests: number;
  /** How many of the tests are valid instances. */
  readonly valid: number;
  readonly compileMs?: number;
  readonly error?: ErrorInfo;
  /** Valid instances refused for a reason other than their key order (validation errors). */
  readonly validRejected: readonly TestFailure[];
  /** Valid instances refused only because their keys contradict the grammar's order (key-order.ts). */
  readonly orderRejected: readonly TestFailure[];
  /** Invalid instances accepted (invalidation errors). */
  readonly invalidAccepted: readonly TestFailure[];
  /** Engine inconsistencies (mask vs accept, eos vs isComplete, cold vs warm pass). */
  readonly mismatches: readonly string[];
  /** Keywords the mask does not enforce: checked after decoding, or (formats) not enforced at all. */
  readonly validatedAfter: readonly string[];
  readonly states?: number;
  readonly grammarBytes?: number;
  /** Microseconds per token (fill + check + accept), first pass and second pass; fill alone, first pass. */
  readonly coldTokenUs: Float64Array;
  readonly warmTokenUs: Float64Array;
  readonly coldMaskUs: Float64Array;
}

export const MASKBENCH_OPTIONS: CompileGrammarOptions = { mode: "jsonschema", format: "flexible" };

/**
 * compileGrammar without the compile cache (`cache: false`), so every call measures a real compile
 * and starts with cold mask caches, and no grammar outlives its file. The rule automata shared
 * across schemas (src/automaton) stay warm unless `cold` clears them first: warm is a long-running
 * process that has compiled other schemas, cold a first compile.
 */
export function compileUncached(schema: unknown, vocabulary: Vocabulary, options: CompileGrammarOptions, cold = false): CompiledGrammar {
  if (cold) clearSharedAutomata();
  return compileGrammar(schema, vocabulary, { ...options, cache: false });
}

const TEXT_LIMIT = 600;

/** The outcome of a file that never got as far as compiling (unreadable, or its worker died). */
export function bareOutcome(file: string, status: "timeout" | "crash", error?: ErrorInfo): SchemaOutcome {
  const empty = new Float64Array(0);
  return {
    file,
    status,
    tests: 0,
    valid: 0,
    ...(error ? { error } : {}),
    validRejected: [],
    orderRejected: [],
    invalidAccepted: [],
    mismatches: [],
    validatedAfter: [],
    coldTokenUs: empty,
    warmTokenUs: empty.slice(),
    coldMaskUs: empty.slice(),
  };
}

export function evaluateFile(
  file: MaskbenchFile,
  vocabulary: Vocabulary,
  timeoutMs: number,
  compileMode: { cold?: boolean; eagerStates?: number; propertyOrder?: CompileGrammarOptions["propertyOrder"] } = {},
): SchemaOutcome {
  const started = performance.now();
  const deadline = started + timeoutMs;
  const cold = new Samples();
  const warm = new Samples();
  const coldMask = new Samples();
  const base = { file: file.name, tests: file.tests.length, valid: file.tests.filter((t) => t.valid).length, validRejected: [], orderRejected: [], invalidAccepted: [], mismatches: [], validatedAfter: [] };
  // Outcomes that stop early carry no timings (partial passes would bias the percentiles).
  const noTimings = { coldTokenUs: cold.values(), warmTokenUs: warm.values(), coldMaskUs: coldMask.values() };

  let compiled: CompiledGrammar;
  try {
    compiled = compileUncached(file.schema, vocabulary, { ...MASKBENCH_OPTIONS, eagerStates: compileMode.eagerStates, propertyOrder: compileMode.propertyOrder }, compileMode.cold);
  } catch (err) {
    const error = describe(err, "compile");
    return { ...base, ...noTimings, status: err instanceof PocketExtractError ? "compile-error" : "crash", error };
  }
  const compileMs = performance.now() - started;
  const validatedAfter = compiled.report === undefined ? [] : notEnforced(compiled.report);
  const withGrammar = { ...base, compileMs, validatedAfter, states: compiled.tokens.stats().states };
  if (performance.now() > deadline) return { ...withGrammar, ...noTimings, status: "timeout" };
  // MaskBench judges the mask alone. Keywords we enforce only by validating after decoding
  // (number bounds, uniqueItems, not, ...) or not at all (a format with no grammar) would let
  // invalid instances through the mask, so such a schema counts as one the grammar does not
  // support, as the reference systems count it.
  if (validatedAfter.length > 0) {
    const error = { stage: "compile", code: "GRAMMAR_CANNOT_ENFORCE", keyword: validatedAfter.join(","), message: `checked only after decoding: ${validatedAfter.join(", ")}` };
    return { ...withGrammar, ...noTimings, status: "compile-error", error };
  }

  let stage = "tokenize";
  try {
    const ids = file.tests.map((test) => vocabulary.encode(test.text));
    stage = "match";
    const mask = new Uint32Array(compiled.tokens.maskWords);
    const eos = vocabulary.eosIds[0]!;
    const run = (pass: number): DriveOutcome[] =>
      ids.map((tokens) => driveMatcher(compiled.tokens.matcher(), tokens, mask, eos, pass === 0 ? { token: cold, mask: coldMask } : { token: warm }, deadline));
    const first = run(0);
    const second = run(1);
    const validRejected: TestFailure[] = [];
    const orderRejected: TestFailure[] = [];
    const invalidAccepted: TestFailure[] = [];
    const mismatches: string[] = [];
    file.tests.forEach((test, i) => {
      const outcome = first[i]!;
      const accepted = outcome.rejectedAt < 0 && outcome.complete;
      if (test.valid && !accepted) {
        const byOrder = orderVerdict(compiled.tokens.matcher(), test.data) === "order";
        (byOrder ? orderRejected : validRejected).push(failure(i, test.description, test.text, ids[i]!, outcome, vocabulary));
      }
      if (!test.valid && accepted) invalidAccepted.push(failure(i, test.description, test.text, ids[i]!, outcome, vocabulary));
      for (const m of outcome.mismatches) mismatches.push(`test ${i}: ${m}`);
      if (second[i]!.rejectedAt !== outcome.rejectedAt || second[i]!.complete !== outcome.complete) {
        mismatches.push(`test ${i}: warm pass disagrees with cold pass (${second[i]!.rejectedAt}/${second[i]!.complete} vs ${outcome.rejectedAt}/${outcome.complete})`);
      }
    });
    const status = validRejected.length + orderRejected.length + invalidAccepted.length + mismatches.length === 0 ? "pass" : "fail";
    const stats = compiled.tokens.stats();
    return {
      ...withGrammar,
      coldTokenUs: cold.values(),
      warmTokenUs: warm.values(),
      coldMaskUs: coldMask.values(),
      status,
      validRejected,
      orderRejected,
      invalidAccepted,
      mismatches,
      grammarBytes: stats.memoryBytes,
    };
  } catch (err) {
    if (err instanceof DeadlineExceeded) return { ...withGrammar, ...noTimings, status: "timeout" };
    const error = describe(err, stage);
    return { ...withGrammar, ...noTimings, status: err instanceof PocketExtractError ? "fail" : "crash", error };
  }
}

/**
 * The keywords of a compile report the mask does not enforce: the ones checked after decoding,
 * and formats reported as not enforced (no grammar, and the validator does not know them).
 */
export function notEnforced(report: CompileReport): string[] {
  const formats = report.annotations.filter((use) => use.keyword === "format" && use.note?.startsWith(FORMAT_NOT_ENFORCED) === true);
  return [...new Set([...report.validatedAfter, ...formats].map((use) => use.keyword))];
}

function failure(index: number, description: string, text: string, ids: readonly number[], outcome: DriveOutcome, vocabulary: Vocabulary): TestFailure {
  const at = outcome.rejectedAt;
  return {
    index,
    description,
    tokens: ids.length,
    at,
    ...(at >= 0 ? { before: clipTail(vocabulary.decode(ids.slice(0, at))), token: vocabulary.decode([ids[at]!]) } : {}),
    text: text.length <= TEXT_LIMIT ? text : `${text.slice(0, TEXT_LIMIT)}…`,
  };
}

function clipTail(text: string): string {
  return text.length <= TEXT_LIMIT ? text : `…${text.slice(-TEXT_LIMIT)}`;
}

export function describe(err: unknown, stage: string): ErrorInfo {
  if (err instanceof PocketExtractError) {
    return {
      stage,
      code: err.code,
      message: err.message,
      ...(err instanceof SchemaError ? { pointer: err.pointer, ...(err.keyword ? { keyword: err.keyword } : {}) } : {}),
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { stage, code: e.name, message: e.message, stack: e.stack?.split("\n").slice(0, 6).join("\n") };
}
