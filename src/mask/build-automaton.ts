/**
 * Grammar IR -> grammar automaton with compileGrammar's options, for compileGrammar and for a
 * loaded grammar that rebuilds its automaton from its source (restored-automaton.ts).
 */
import { buildAutomaton, type GrammarAutomaton, type Partition } from "../automaton/index.js";
import { SchemaError } from "../errors.js";
import type { Grammar } from "../grammar/index.js";
import { MAX_NESTING_OPTION } from "../schema-compiler/index.js";
import { checkInteger } from "../util/index.js";

/** The automaton options of compileGrammar (compile-grammar.ts documents them). */
export interface AutomatonOptions {
  readonly maxRecursionDepth?: number;
  readonly maxStates?: number;
  readonly eagerStates?: number;
}

/** `byteClasses`: a loaded grammar's, for its rebuild (BuildOptions.byteClasses says why). */
export function buildGrammarAutomaton(grammar: Grammar, options: AutomatonOptions, byteClasses?: Partition): GrammarAutomaton {
  // Checked here, not in the schema compiler: grammars given as GBNF or IR recurse too.
  checkInteger("maxRecursionDepth", options.maxRecursionDepth, 0, MAX_NESTING_OPTION);
  return withinStack(() => buildAutomaton(grammar, { maxRecursionDepth: options.maxRecursionDepth, maxStates: options.maxStates, eagerStates: options.eagerStates, byteClasses }));
}

/**
 * Runs an automaton build, turning a stack overflow into a typed error. The schema limits
 * (maxSchemaProperties, maxSchemaDepth) keep schemas well inside the stack; this is the
 * backstop for a limit raised past what the automaton passes can walk.
 */
function withinStack<T>(build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      throw new SchemaError("SCHEMA_TOO_LARGE", "the grammar nests too deeply to build (lower maxSchemaProperties or maxSchemaDepth, or split the schema)", { pointer: "" }, { cause: err });
    }
    throw err;
  }
}
