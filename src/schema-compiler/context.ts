/**
 * The state of one compilation: options, the rules built so far, the report, the `$ref`
 * resolver, the null escapes, and the budgets that keep hostile schemas from hanging the process.
 */

import { SchemaError } from "../errors.js";
import { importRules, jsonString, lit, loadGrammarFile, never, ref, repeatCopies, type Expr } from "../grammar/index.js";
import { anyValueLevels, anyValueName } from "./any-value.js";
import { DEFAULT_SCHEMA_LIMITS, detectDraft, RefResolver, type SchemaLimits } from "../schema/index.js";
import { checkInteger } from "../util/index.js";
import { cat, gapExpr } from "./format.js";
import { ReportBuilder } from "./report.js";
import { LoggedMap, LoggedSet, UndoLog } from "./undo-log.js";
import { DEFAULT_MAX_ANY_VALUE_DEPTH, DEFAULT_MAX_STRING_LENGTH, MAX_NESTING_OPTION, type CompileOptions, type NullEscape, type ResolvedCompileOptions } from "./types.js";

/** Bounds on the work one compilation may do (documented in the README of src/schema). */

/** json.gbnf number rules and their finite-double counterparts used in extraction mode. */
const FINITE_NUMBERS = new Map([
  ["number", "finite-number"],
  ["integer", "finite-integer"],
  ["exponent", "finite-exponent"],
]);

/** Fixed bounds; the ones users may change are SchemaLimits (types.ts, DEFAULT_SCHEMA_LIMITS). */
export const LIMITS = {
  /** Subschema compilations (counts repeats from merging and inlining). */
  maxCompiledNodes: 200_000,
  /** Alternatives produced by distributing anyOf/oneOf over siblings. */
  maxBranches: 256,
  /** Nested $ref inlining when a $ref must be merged with siblings or allOf. */
  maxInlineDepth: 16,
  /** States of one object's presence automaton (minProperties/maxProperties over optional
   *  members, dependencies; presence.ts), each a rule; past it they are checked after decoding. */
  maxPresenceStates: 2_000,
  /** Estimated size of one regex after expanding counted repetition. */
  maxPatternSize: 100_000,
} as const;

/** What compiling one input node left behind, for CompileContext.reuse to replay. */
interface CompiledNode {
  readonly expr: Expr | null;
  /** Subschema compilations and declared properties it counted against the budgets. */
  readonly compiled: number;
  readonly properties: number;
  /** The reason it recorded last for a subschema without instances (undefined: none). */
  readonly unsat: Unsat | undefined;
  readonly nullEscapes: readonly NullEscape[];
}

export interface Unsat {
  readonly message: string;
  readonly keyword: string;
  readonly pointer: string;
}

export class CompileContext {
  /** What checkpoint() rolls the rules, names and report back with. */
  private readonly undo = new UndoLog();
  readonly rules: Map<string, Expr> = new LoggedMap(this.undo);
  /** Rules of arrays whose string items the matcher keeps distinct (Grammar.distinctArrays). */
  readonly distinctArrays: Set<string> = new LoggedSet(this.undo);
  readonly report = new ReportBuilder(this.undo);
  readonly nullEscapes: NullEscape[] = [];
  readonly options: ResolvedCompileOptions;
  readonly resolver: RefResolver;
  /** Draft 7 and earlier: siblings of `$ref` are ignored. */
  readonly legacyRefs: boolean;
  /** JSON Schema mode, draft 6 on: an integer may be written with a zero fraction (2.0).
   *  Extraction mode writes numbers in their canonical form only: the model needs one way to
   *  write a value, and `3.0000` would spend tokens on nothing. */
  readonly zeroFractionIntegers: boolean;
  /** Draft 7 and later: `if`/`then`/`else` are keywords (before, the validator still checks them). */
  readonly conditionals: boolean;
  /** The most recent reason a subschema turned out to accept nothing (for the root error). */
  lastUnsat: Unsat | undefined;
  private readonly refRules = new LoggedMap<string, string>(this.undo);
  private readonly usedNames = new LoggedSet<string>(this.undo);
  /** Grammar files library() has imported; rolled back with the rules they brought. */
  private readonly importedFiles = new LoggedSet<string>(this.undo);
  /** Per name base: the suffix to try next (see ruleName). */
  private readonly nextSuffix = new LoggedMap<string, number>(this.undo);
  private compiled = 0;
  private properties = 0;
  /** Compiled input nodes by node id and place (see reuse); rolled back with the rules they refer to. */
  private readonly compiledNodes = new LoggedMap<string, CompiledNode>(this.undo);
  private readonly nodeIds = new WeakMap<object, number>();
  private nextNodeId = 0;
  depth = 0;
  inlineDepth = 0;
  private readonly gap: Expr | null;

  constructor(root: unknown, options: CompileOptions) {
    const mode = options.mode ?? "extraction";
    this.options = {
      format: options.format ?? "compact",
      mode,
      defaultMaxStringLength: options.defaultMaxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
      verbatimSource: options.verbatimSource,
      nullEscape: options.nullEscape ?? mode === "extraction",
      propertyOrder: options.propertyOrder ?? "declared",
      maxRecursionDepth: options.maxRecursionDepth ?? 8,
      maxAnyValueDepth: options.maxAnyValueDepth ?? DEFAULT_MAX_ANY_VALUE_DEPTH[mode],
      maxSchemaBytes: options.maxSchemaBytes ?? DEFAULT_SCHEMA_LIMITS.maxSchemaBytes,
      maxSchemaDepth: options.maxSchemaDepth ?? DEFAULT_SCHEMA_LIMITS.maxSchemaDepth,
      maxSchemaProperties: options.maxSchemaProperties ?? DEFAULT_SCHEMA_LIMITS.maxSchemaProperties,
      maxSchemaExpansion: options.maxSchemaExpansion ?? DEFAULT_SCHEMA_LIMITS.maxSchemaExpansion,
    };
    for (const key of Object.keys(DEFAULT_SCHEMA_LIMITS) as (keyof SchemaLimits)[]) checkInteger(key, options[key], 1, Number.MAX_SAFE_INTEGER);
    checkInteger("maxAnyValueDepth", options.maxAnyValueDepth, 0, MAX_NESTING_OPTION);
    if (mode === "jsonschema" && options.nullEscape === true) {
      throw new SchemaError("SCHEMA_INVALID", "nullEscape applies to extraction mode only", { pointer: "" });
    }
    const draft = detectDraft(root);
    this.legacyRefs = draft.legacyRefs;
    this.zeroFractionIntegers = mode === "jsonschema" && !draft.fractionlessIntegers;
    this.conditionals = !draft.noConditionals;
    this.resolver = new RefResolver(root, draft.draft4Ids, draft.legacyRefs);
    this.gap = gapExpr(this.options.format);
    if (this.gap !== null) this.rules.set("ws", this.gap);
  }

  get extraction(): boolean {
    return this.options.mode === "extraction";
  }

  /** Whitespace between tokens (a reference to the `ws` rule, or nothing in compact format). */
  ws(): Expr | null {
    return this.gap === null ? null : ref("ws");
  }

  /** `,` `:` `{` `}` `[` `]` with the gaps around them. */
  punct(p: "," | ":" | "{" | "}" | "[" | "]"): Expr {
    const w = this.ws();
    if (p === "{" || p === "[") return cat(lit(p), w);
    if (p === "}" || p === "]") return cat(w, lit(p));
    return cat(w, lit(p), w);
  }

  /**
   * `expr` as a rule of its own when it is big (a nested object or array value): the automaton
   * builder then calls it instead of copying it into its parent, and shares it across schemas
   * with the same shape. Small values stay inline (the builder would inline them anyway).
   */
  outline(expr: Expr, hint: string): Expr {
    if (expandedNodes(expr, OUTLINE_MIN_NODES) <= OUTLINE_MIN_NODES) return expr;
    const name = this.ruleName(hint);
    this.rules.set(name, expr);
    return ref(name);
  }

  /** `array` (a JSON array of strings) as a rule whose items the matcher keeps distinct. */
  distinctArray(array: Expr): Expr {
    const name = this.ruleName("distinct-strings");
    this.rules.set(name, array);
    this.distinctArrays.add(name);
    return ref(name);
  }

  /** A fresh rule name derived from `hint`. */
  ruleName(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "r";
    // Suffixes continue where the last name from this base stopped (a big schema has hundreds of
    // "obj-tail"s: trying them all from 2 each time was quadratic).
    let i = this.nextSuffix.get(base) ?? 1;
    let name = i === 1 ? base : `${base}-${i}`;
    while (this.usedNames.has(name) || this.rules.has(name)) name = `${base}-${++i}`;
    this.nextSuffix.set(base, i + 1);
    this.usedNames.add(name);
    return name;
  }

  /** A rule from grammars/<file>.gbnf, imported once (with `ws` and `string` substituted; in
   *  extraction mode, numbers bounded to finite doubles). */
  library(file: string, name: string): Expr {
    const rule = file === "json" && this.options.mode === "extraction" ? (FINITE_NUMBERS.get(name) ?? name) : name;
    const prefix = `${file}-`;
    // A file is imported whole, the same way every time in one compile: once (every number or
    // format field asks again, and an import walks all of the file's rules).
    if (!this.importedFiles.has(file)) {
      const overrides = new Map<string, string>([["ws", "ws"]]);
      if (file === "json") {
        // Strings inside unconstrained values stay unbounded even in extraction mode: a length
        // counter in every string of every nesting level would multiply the automaton's size.
        if (!this.rules.has("string")) this.rules.set("string", jsonString({}));
        overrides.set("string", "string");
        if (this.gap === null && !this.rules.has("ws")) this.rules.set("ws", cat());
      }
      importRules(this.rules, { start: rule, rules: loadGrammarFile(file).rules }, prefix, overrides);
      this.importedFiles.add(file);
    }
    return ref(prefix + rule);
  }

  /** Any JSON value (`true` schema), with at most `maxAnyValueDepth` levels of nested containers
   *  (any-value.ts). */
  anyValue(): Expr {
    const depth = this.options.maxAnyValueDepth;
    const name = anyValueName(depth);
    if (!this.rules.has(name)) {
      this.library("json", "number");
      for (const level of anyValueLevels(depth)) for (const [rule, body] of level) if (!this.rules.has(rule)) this.rules.set(rule, body);
    }
    return ref(name);
  }

  /** The rule for a `$ref` target, compiled on first use; recursion goes through the rule name. */
  refRule(key: string, hint: string, build: () => Expr | null): Expr {
    let name = this.refRules.get(key);
    if (name === undefined) {
      name = this.ruleName(`def-${hint}`);
      this.refRules.set(key, name);
      this.rules.set(name, never());
      this.rules.set(name, build() ?? never());
    }
    return ref(name);
  }

  /**
   * `compile()` of input node `schema`, or what it returned when the same node was compiled before
   * at the same pointer, instance path and depths: the rewritings (oneOf, not, dependencies,
   * anyOf distributed over siblings) merge a node into every alternative they make, and its
   * subschemas, kept by identity, were compiled again for each. The expression and the report
   * verdicts depend on nothing else (rules and names only add up; the verdicts recorded the
   * first time stay, or are rolled back together with this entry). A reuse counts the budgets as
   * the compilation did, so a schema past one fails as it would have.
   */
  reuse(schema: object, pointer: string, instancePath: string, compile: () => Expr | null): Expr | null {
    let id = this.nodeIds.get(schema);
    if (id === undefined) this.nodeIds.set(schema, (id = this.nextNodeId++));
    const key = `${id}\u0000${pointer}\u0000${instancePath}\u0000${this.depth}\u0000${this.inlineDepth}`;
    const done = this.compiledNodes.get(key);
    if (done !== undefined && this.compiled + done.compiled <= LIMITS.maxCompiledNodes && this.properties + done.properties <= this.options.maxSchemaProperties) {
      this.compiled += done.compiled;
      this.properties += done.properties;
      if (done.unsat !== undefined) this.lastUnsat = done.unsat;
      this.nullEscapes.push(...done.nullEscapes);
      return done.expr;
    }
    // Past a budget the node is compiled again, and fails where it would have.
    const { compiled, properties, lastUnsat } = this;
    const escapes = this.nullEscapes.length;
    const expr = compile();
    this.compiledNodes.set(key, {
      expr,
      compiled: this.compiled - compiled,
      properties: this.properties - properties,
      unsat: this.lastUnsat === lastUnsat ? undefined : this.lastUnsat,
      nullEscapes: this.nullEscapes.slice(escapes),
    });
    return expr;
  }

  /** Counts one subschema compilation against the budget. */
  tick(pointer: string): void {
    if (++this.compiled > LIMITS.maxCompiledNodes) {
      throw new SchemaError("SCHEMA_TOO_LARGE", `schema expands to more than ${LIMITS.maxCompiledNodes} subschema compilations`, { pointer });
    }
    if (this.depth > this.options.maxSchemaDepth) {
      throw new SchemaError("SCHEMA_TOO_LARGE", `subschemas nested deeper than ${this.options.maxSchemaDepth} (maxSchemaDepth)`, { pointer });
    }
  }

  /** Counts an object's declared properties against maxSchemaProperties. */
  countProperties(n: number, pointer: string): void {
    this.properties += n;
    if (this.properties > this.options.maxSchemaProperties) {
      throw new SchemaError(
        "SCHEMA_TOO_LARGE",
        `the schema declares more than ${this.options.maxSchemaProperties} properties (maxSchemaProperties); split it into several extractions or raise the limit`,
        { keyword: "properties", pointer },
      );
    }
  }

  /**
   * The grammar, names and report as they are now, to return to when an attempt (a oneOf's
   * exclusive rewriting) turns out past a size budget. The work done stays counted
   * (maxCompiledNodes bounds the time of every attempt together); the properties, which measure
   * the grammar kept, are given back.
   */
  checkpoint(): () => void {
    const mark = this.undo.mark();
    const { properties, lastUnsat } = this;
    const nullEscapes = this.nullEscapes.length;
    return () => {
      this.undo.rollBack(mark);
      this.properties = properties;
      this.lastUnsat = lastUnsat;
      this.nullEscapes.length = nullEscapes;
    };
  }

  unsat(message: string, keyword: string, pointer: string): null {
    this.lastUnsat = { message, keyword, pointer };
    return null;
  }
}

/** Expressions with more nodes than this become rules of their own (see `outline`). */
const OUTLINE_MIN_NODES = 24;

/** Nodes of `expr` as an automaton copies them, a repeat's item once per copy (an array of
 *  100 small arrays of 100 items is 10,000 items' worth, not a few nodes); counting stops once
 *  past `limit`. */
function expandedNodes(e: Expr, limit: number): number {
  let count = 1;
  if (e.kind === "seq" || e.kind === "alt") {
    for (const item of e.items) {
      if (count > limit) break;
      count += expandedNodes(item, limit - count);
    }
  } else if (e.kind === "repeat") {
    const copies = repeatCopies(e.min, e.max);
    count += copies * expandedNodes(e.item, Math.ceil((limit - count + 1) / copies));
  }
  return count;
}
