/**
 * Grammar IR -> one automaton per rule, where a reference is either inlined (the callee's
 * automaton embedded, for small non-recursive rules, counting every copy a bounded repeat makes)
 * or kept as a call column (dfa.ts `callees`) that the grammar automaton (grammar-automaton.ts)
 * runs with a stack. Calls are what keep big schemas small: a definition used in twenty places, or
 * a nested object, is built once instead of being copied into every caller's states, and recursion
 * needs no unrolling. Inlined rules are finished DFAs; called rules, recursive ones included, are
 * determinized as documents reach them (subset-rule.ts), a recursive one read through tables per
 * depth left (rule-analysis.ts).
 *
 * A rule can be built on first use (build.ts builds those nearest the start at compile, up to
 * the `eagerStates` budget, and leaves the rest to the documents that reach them): what the
 * analysis needs of a callee before that, its shortest text, is computed on the grammar IR
 * (min-length.ts), and so is the choice to inline (a small rule that calls nothing), so neither
 * builds anything.
 *
 * Recursion depth keeps the meaning it has always had: entering a recursion head (rule-graph.ts)
 * from inside its cycle spends one unit, entering another strongly connected component starts
 * afresh at the maximum, and the analysis (rule-analysis.ts) removes every move that could only
 * complete deeper than allowed.
 */
import { repeatCopies, type Expr, type Grammar } from "../../grammar/index.js";
import { PocketExtractError } from "../../errors.js";
import {
  addExpr,
  Budget,
  compileExpr,
  determinize,
  finish,
  isLazyRule,
  Nfa,
  refineClasses,
  UNREACHABLE,
  type ByteDfa,
  type Fragment,
  type LazyRule,
  type Leaf,
  type Partition,
  type ResolveLeaf,
  type RuleTables,
} from "../fsa/index.js";
import { SubsetRule } from "./subset-rule.js";
import { BoundedStringAutomaton, ExcludedNamesAutomaton, JsonStrings, VerbatimAutomaton, type JsonStringSpec } from "../strings/index.js";
import { MinLengths } from "./min-length.js";
import { grammarByteClasses } from "./grammar-byte-classes.js";
import { analyzeRules, type RuleGraph } from "./rule-graph.js";
import { StructuralKeys } from "./structural-keys.js";
import { LruCache } from "../../util/index.js";

/** Work limits of buildAutomaton: recursion depth, states, and how much to compile before decoding starts. */
export interface BuildOptions {
  /** How many times a recursive rule may be re-entered along one path (default 8). */
  readonly maxRecursionDepth?: number;
  /** Largest number of states of any automaton built on the way (default 200,000); also bounds
   *  the states the grammar automaton may materialize while decoding. */
  readonly maxStates?: number;
  /** Rules built at compile, nearest the start first, until their NFAs total this many states
   *  (default DEFAULT_EAGER_STATES; a rule found in the process-wide cache costs nothing and
   *  counts nothing); the rest are built when a document first reaches them. Infinity builds
   *  every rule at compile, so that every error in the schema shows there; 0 builds only the
   *  start rule. */
  readonly eagerStates?: number;
  /** Byte classes to index the grammar automaton by instead of its own: a loaded grammar's,
   *  which its rebuild must match. Its own depend on what this process has cached (cached rules
   *  count nothing against `eagerStates`, so a warm build builds more rules and refines their
   *  coarser classes); any grammar automaton's classes for the same grammar refine every rule's. */
  readonly byteClasses?: Partition;
}

export const DEFAULT_MAX_RECURSION_DEPTH = 8;
export const DEFAULT_MAX_STATES = 200_000;
/** A few milliseconds of rule building: every rule of most schemas (88% of the MaskBench dev
 *  sample), the part nearest the start of bigger ones (up to hundreds of rules, of which a
 *  document reaches some). */
export const DEFAULT_EAGER_STATES = 2048;
/** Strings up to this many states are inlined: a call costs a stack frame at every use, which is
 *  only worth it for automata big enough to matter. */
const INLINE_MAX_STATES = 64;
/** Rules that call nothing and have up to this many IR nodes (inlined rules counted) are
 *  inlined, by the same reasoning, judged on the IR so that deciding builds nothing. */
const INLINE_MAX_NODES = 48;
/** Recursive rules with NFAs up to this size are built minimal (see recursiveRule). */
const MINIMAL_RECURSIVE_NFA_STATES = 256;

/** The analysis of a shared rule, filled in by the first grammar that needs it. */
export interface SharedTables {
  tables?: RuleTables;
}

/** The rules of one grammar, by id: the start rule, called rules and string rules. */
export class RuleSet {
  readonly names: string[] = [];
  readonly root: number;
  readonly maxDepth: number;
  private readonly ids = new Map<string, number>();
  /** Per rule id: its component, whether it is a recursion head, whether it is recursive. */
  private readonly components: number[] = [];
  private readonly heads: boolean[] = [];
  private readonly recursives: boolean[] = [];
  /** Per rule id: whether it is one of the grammar's distinct arrays (Grammar.distinctArrays). */
  private readonly distincts: boolean[] = [];
  private readonly dfas: (ByteDfa | LazyRule | undefined)[] = [];
  private readonly sharedEntries: (CachedRule | undefined)[] = [];
  private readonly built = new Map<string, ByteDfa | null>();
  private readonly flatSizes = new Map<string, number>();
  private readonly sharedOf = new Map<string, CachedRule>();
  /** True once every rule reachable from the start is built (see buildNearest). */
  private allBuilt = false;
  /** NFA states of the rules built so far (what `buildNearest` is limited by). */
  private nfaStates = 0;
  private readonly stringDfas = new Map<string, ByteDfa | LazyRule | null>();
  private readonly budget: Budget;
  private readonly strings: JsonStrings;
  private readonly keys: StructuralKeys;
  private readonly graph: RuleGraph;
  private readonly lengths: MinLengths;
  private readonly givenClasses: Partition | undefined;

  constructor(
    private readonly grammar: Grammar,
    options: BuildOptions = {},
  ) {
    this.maxDepth = options.maxRecursionDepth ?? DEFAULT_MAX_RECURSION_DEPTH;
    this.givenClasses = options.byteClasses;
    const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
    this.budget = Budget.forStates(maxStates);
    this.graph = analyzeRules(grammar);
    this.strings = new JsonStrings(this.budget);
    this.keys = new StructuralKeys(grammar, (name) => this.isRecursive(name));
    this.lengths = new MinLengths(grammar, this.graph, this.maxDepth, (leaf) => this.stringShortest(leaf));
    this.root = this.idOf(grammar.start);
    if (this.lengths.of(grammar.start, this.maxDepth) >= UNREACHABLE) {
      throw new PocketExtractError("SCHEMA_UNSATISFIABLE", this.lengths.emptyMessage(grammar.start));
    }
    this.dfa(this.root);
  }

  /** The automaton of rule `id`, built on first use. */
  dfa(id: number): ByteDfa | LazyRule {
    let dfa = this.dfas[id];
    if (dfa === undefined) {
      const name = this.names[id]!;
      dfa = (this.isRecursive(name) ? this.recursiveRule(name) : this.calledRule(name)) ?? EMPTY;
      this.dfas[id] = dfa;
      this.sharedEntries[id] = this.sharedOf.get(this.names[id]!);
    }
    return dfa;
  }

  /** Where a shared rule keeps its analysis (undefined for rules of this grammar only). */
  shared(id: number): SharedTables | undefined {
    return this.sharedEntries[id];
  }

  /** Fewest bytes of a text of rule `id` entered with `depth` left (UNREACHABLE when none). */
  minLength(id: number, depth: number): number {
    if (depth < 0) return UNREACHABLE;
    const name = this.names[id]!;
    if (!name.startsWith(STRING_RULE_PREFIX)) return this.lengths.of(name, depth);
    // A string rule's automaton exists from the moment it got its id.
    return shortestOf(this.dfas[id]!);
  }

  /** The component id (rules in one cycle share it; a callee outside it has a lower one). */
  component(id: number): number {
    return this.components[id]!;
  }

  /** True for a recursion head (entering it from its own component costs depth). */
  head(id: number): boolean {
    return this.heads[id]!;
  }

  /** True when the rule's component is recursive (its analysis depends on the depth left). */
  recursive(id: number): boolean {
    return this.recursives[id]!;
  }

  /** True for a distinct array's rule: always called, so that its frames mark where it is. */
  distinct(id: number): boolean {
    return this.distincts[id]!;
  }

  /** True when the grammar has distinct arrays (Grammar.distinctArrays). */
  get hasDistinct(): boolean {
    return (this.grammar.distinctArrays?.size ?? 0) > 0;
  }

  /** Builds rules in the order they were found, nearest the start first (a rule's callees get
   *  their ids when it is built), until their NFAs total `limit` states or every rule reachable
   *  from the start is built. */
  buildNearest(limit = Infinity): (ByteDfa | LazyRule)[] {
    let id = 0;
    for (; id < this.names.length && this.nfaStates < limit; id++) this.dfa(id);
    this.allBuilt = id === this.names.length;
    return this.builtRules();
  }

  /** Byte classes that refine every rule's, which the grammar automaton's table is indexed by:
   *  the given ones (BuildOptions.byteClasses), those of the built rules when all are built, else
   *  read off the grammar (grammar-byte-classes.ts). */
  byteClasses(): Partition {
    if (this.givenClasses !== undefined) return this.givenClasses;
    if (this.allBuilt) return refineClasses(this.builtRules().map((d) => d.classOf));
    return grammarByteClasses(this.grammar);
  }

  /** The rules built so far. */
  builtRules(): (ByteDfa | LazyRule)[] {
    return this.dfas.filter((d): d is ByteDfa | LazyRule => d !== undefined);
  }

  private isRecursive(name: string): boolean {
    return this.graph.recursiveComponents.has(this.graph.component.get(name)!);
  }

  private idOf(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.push(name) - 1;
      this.ids.set(name, id);
      // Read on every automaton step: by id, not by name. String rules call nothing: any
      // component id below every grammar rule's will do.
      this.components.push(this.graph.component.get(name) ?? -1);
      this.heads.push(this.graph.heads.has(name));
      this.recursives.push(this.isRecursive(name));
      this.distincts.push(this.grammar.distinctArrays?.has(name) ?? false);
    }
    return id;
  }

  /** A string's automaton (built, or computed on demand: plain verbatim and length-only), one
   *  per distinct spec in this grammar. */
  private stringDfa(leaf: JsonStringSpec): ByteDfa | LazyRule | null {
    const key = JsonStrings.keyOf(leaf);
    let dfa = this.stringDfas.get(key);
    if (dfa === undefined) {
      dfa =
        leaf.minLength > leaf.maxLength
          ? null
          : isPlainVerbatim(leaf)
            ? VerbatimAutomaton.of(leaf.substringOf, "verbatim string")
            : isLongLengthOnly(leaf)
              ? new BoundedStringAutomaton(leaf.minLength, leaf.maxLength)
              : this.excludedNames(leaf) ?? this.strings.get(leaf);
      this.stringDfas.set(key, dfa);
    }
    return dfa;
  }

  /** A string that is any text but some names (and no shorter than its minimum), computed; null
   *  for other strings, or when the string without the names is not a built automaton. */
  private excludedNames(leaf: JsonStringSpec): ExcludedNamesAutomaton | null {
    const { exclude, ...rest } = leaf;
    if (exclude === undefined || exclude.length === 0 || leaf.maxLength !== Infinity || leaf.substringOf !== undefined || !unfiltered(rest)) return null;
    const string = this.stringDfa(rest);
    return string === null || isLazyRule(string) ? null : new ExcludedNamesAutomaton(string, exclude, this.budget, `string ${JsonStrings.keyOf(leaf)}`);
  }

  private stringShortest(leaf: JsonStringSpec): number {
    const dfa = this.stringDfa(leaf);
    return dfa === null ? UNREACHABLE : shortestOf(dfa);
  }

  /** Small strings are inlined (all `copies` of them, see ResolveLeaf); bigger ones, and
   *  verbatim ones (their automaton is the document's, so callers must not depend on it), become
   *  rules of their own, called. */
  private stringRule(leaf: JsonStringSpec, copies: number): ByteDfa | number | null {
    const dfa = this.stringDfa(leaf);
    if (dfa === null || (leaf.substringOf === undefined && !isLazyRule(dfa) && dfa.numStates * copies <= INLINE_MAX_STATES)) return dfa as ByteDfa | null;
    return this.calleeId(leaf);
  }

  /** The rule id a call of `leaf` calls (a string gets a rule of its own). */
  private calleeId(leaf: Leaf): number {
    if (leaf.kind === "ref") return this.idOf(leaf.name);
    const id = this.idOf(`${STRING_RULE_PREFIX}${JsonStrings.keyOf(leaf)}`);
    this.dfas[id] ??= this.stringDfa(leaf)!;
    return id;
  }

  /** A rule built to a finished DFA (a rule that is inlined). */
  private ruleDfa(name: string): ByteDfa | null {
    if (this.built.has(name)) return this.built.get(name)!;
    const what = `rule '${name}'`;
    const { rule, callees, entry } = this.sharedRule(name, "", (resolve) => compileExpr(this.grammar.rules.get(name)!, this.budget, what, { resolve }));
    // A shared automaton was built under another build's limits: this build's limit still applies.
    if (rule !== null && callees !== undefined) this.budget.checkStates(rule.numStates, what);
    const dfa = rule === null || callees === undefined || callees.length === 0 ? rule : { ...rule, callees };
    if (entry !== undefined) this.sharedOf.set(name, entry);
    this.built.set(name, dfa);
    return dfa;
  }

  /**
   * A recursive rule (never shared: its structure is this grammar's). A small one is a finished
   * minimal DFA: nesting multiplies a rule's states (the grammar automaton's states are stacks of
   * them), so equivalent states must be one. A big one is determinized as documents reach it,
   * like a called rule (building its minimal DFA was most of a big schema's compile); callees
   * weigh their shortest text at the greatest depth, so its DFA has the states of every depth,
   * and the analysis narrows it per depth left (rule-analysis.ts).
   */
  private recursiveRule(name: string): ByteDfa | LazyRule | null {
    const what = `rule '${name}'`;
    return this.sharedRule(name, "", (resolve) => {
      const { nfa, frag } = this.ruleNfa(name, what, resolve);
      if (frag === null) return null;
      if (nfa.numStates <= MINIMAL_RECURSIVE_NFA_STATES) return finish(determinize(nfa, frag, this.budget, what));
      return SubsetRule.of(nfa, frag, (callee) => this.minLength(callee, this.maxDepth), this.budget.maxStates, what);
    }).rule;
  }

  /** A non-recursive rule that is called (or the start): determinized as documents reach it
   *  (subset-rule.ts), shared like built rules under keys of its own kind. */
  private calledRule(name: string): LazyRule | null {
    const what = `rule '${name}'`;
    const { rule, callees } = this.sharedRule(name, CALLED_PREFIX, (resolve) => {
      const { nfa, frag } = this.ruleNfa(name, what, resolve);
      return frag === null ? null : SubsetRule.of(nfa, frag, (callee) => this.minLength(callee, this.maxDepth), this.budget.maxStates, what);
    });
    return rule === null || callees === undefined || callees.length === 0 ? rule : rule.calledAs(callees);
  }

  /** Rule `name`'s NFA, counted against the compile-time budget (see buildNearest). */
  private ruleNfa(name: string, what: string, resolve: ResolveLeaf): { nfa: Nfa; frag: Fragment | null } {
    const nfa = new Nfa(this.budget, what);
    const frag = addExpr(nfa, this.grammar.rules.get(name)!, resolve);
    this.nfaStates += nfa.numStates;
    return { nfa, frag };
  }

  /**
   * Rule `name`'s automaton from the process-wide cache, or built by `build` (which resolves
   * leaves through the function it is given) and cached. On a hit, `callees` are this grammar's
   * rule ids for the shared automaton's call columns.
   */
  private sharedRule<T extends ByteDfa | SubsetRule>(
    name: string,
    prefix: string,
    build: (resolve: ResolveLeaf) => T | null,
  ): { rule: T | null; callees?: Int32Array; entry?: CachedRule } {
    const { keys } = this;
    // The interned id of the key, not the key: a rule's key is as long as its expression, and
    // a cache lookup hashes the string it is given.
    const id = keys.refKey(name);
    const cacheKey = id === null ? null : prefix + id;
    const hit = cacheKey === null ? undefined : ruleCache.get(cacheKey);
    if (hit !== undefined) {
      const callees = Int32Array.from(hit.callees, (callee) => this.calleeId(keys.leafByKey(name, callee)));
      return { rule: hit.dfa as T | null, callees, entry: hit };
    }
    /** Per call column id: what the shared automaton stores it as. */
    const calleeKeys = new Map<number, string | null>();
    // A bounded repeat resolves its item's leaves once per copy: the answer is the same.
    const resolved = new Map<Leaf, { copies: number; target: ByteDfa | number | null }>();
    const rule = build((leaf, copies) => {
      const known = resolved.get(leaf);
      if (known?.copies === copies) return known.target;
      const target = this.resolveLeaf(name, leaf, copies);
      resolved.set(leaf, { copies, target });
      if (typeof target === "number") calleeKeys.set(target, keys.leafKey(leaf));
      return target;
    });
    if (cacheKey === null) return { rule };
    const entry: CachedRule = { dfa: rule, callees: Array.from(rule?.callees ?? [], (id) => calleeKeys.get(id)!) };
    ruleCache.set(cacheKey, entry);
    return { rule, entry };
  }

  /** A leaf of rule `name` (`copies` times in its NFA) as an automaton to inline or a rule id to
   *  call (null: empty). */
  private resolveLeaf(name: string, leaf: Leaf, copies: number): ByteDfa | number | null {
    if (leaf.kind === "jsonString") return this.stringRule(leaf, copies);
    if (this.lengths.of(leaf.name, this.maxDepth) >= UNREACHABLE && !this.isRecursive(leaf.name)) return null;
    if (this.graph.component.get(leaf.name) !== this.graph.component.get(name) && this.flatSize(leaf.name) * copies <= INLINE_MAX_NODES) {
      return this.ruleDfa(leaf.name);
    }
    return this.idOf(leaf.name);
  }

  /** IR nodes of a non-recursive rule that calls nothing, inlined rules and repeated copies
   *  counted; Infinity for any other rule (or past the inlining limit). */
  private flatSize(name: string): number {
    let size = this.flatSizes.get(name);
    if (size !== undefined) return size;
    size = Infinity;
    if (!this.isRecursive(name) && !(this.grammar.distinctArrays?.has(name) ?? false)) {
      let count = 0;
      const visit = (e: Expr, copies: number): boolean => {
        count += copies;
        if (count > INLINE_MAX_NODES) return false;
        switch (e.kind) {
          case "seq":
          case "alt":
            return e.items.every((item) => visit(item, copies));
          case "repeat":
            return visit(e.item, copies * repeatCopies(e.min, e.max));
          case "ref": {
            const inner = this.flatSize(e.name);
            count += inner * copies;
            return inner <= INLINE_MAX_NODES;
          }
          case "jsonString":
            return typeof this.stringRule(e, copies) !== "number";
          default:
            return true;
        }
      };
      if (visit(this.grammar.rules.get(name)!, 1) && count <= INLINE_MAX_NODES) size = count;
    }
    this.flatSizes.set(name, size);
    return size;
  }
}

/** How many string leaves the grammar has (each may become a rule of its own). */
/** Fewest bytes of a text of a string automaton (computed ones know it). */
function shortestOf(dfa: ByteDfa | LazyRule): number {
  return isLazyRule(dfa) ? dfa.shortest : shortestText(dfa);
}

/** Fewest bytes from the start to acceptance of an automaton without calls (breadth-first). */
function shortestText(dfa: ByteDfa): number {
  if (dfa.numStates === 0) return UNREACHABLE;
  const { numClasses: k, trans } = dfa;
  const dist = new Int32Array(dfa.numStates).fill(-1);
  const queue = new Int32Array(dfa.numStates);
  let tail = 0;
  dist[dfa.start] = 0;
  queue[tail++] = dfa.start;
  for (let head = 0; head < tail; head++) {
    const s = queue[head]!;
    if (dfa.accepting[s]) return dist[s]!;
    for (let c = 0; c < k; c++) {
      const t = trans[s * k + c]!;
      if (t >= 0 && dist[t]! < 0) {
        dist[t] = dist[s]! + 1;
        queue[tail++] = t;
      }
    }
  }
  return UNREACHABLE;
}

/**
 * Automata of non-recursive rules, shared process-wide by structural key (a bounded LRU): schemas
 * share their number, string, whitespace and "any value" rules, and a schema with verbatim fields
 * recompiled for each document rebuilds only the document's string. Finished DFAs are immutable;
 * a called rule (subset-rule.ts) only grows, by states that mean the same for every grammar that
 * shares it. Call columns are stored as callee keys and mapped to each build's rule ids.
 */
const ruleCache = new LruCache<string, CachedRule>(4096);

interface CachedRule extends SharedTables {
  readonly dfa: ByteDfa | SubsetRule | null;
  readonly callees: readonly string[];
}

/** Forgets every shared rule and string automaton (for cold-compile measurements, or to free
 *  memory); later builds rebuild what they need. */
export function clearSharedAutomata(): void {
  ruleCache.clear();
  JsonStrings.clearShared();
}

/** Cache keys of called rules (subset-rule.ts), apart from the same rule built to be inlined. */
const CALLED_PREFIX = "called ";

/** Names of string rules; no grammar rule name can start with a space. */
const STRING_RULE_PREFIX = " string ";

const EMPTY: ByteDfa = { numStates: 0, start: 0, numClasses: 1, classOf: new Uint8Array(256), trans: new Int32Array(0), accepting: new Uint8Array(0) };

/** A verbatim spec with nothing but the substring condition (substrings are never empty). */
function isPlainVerbatim(spec: JsonStringSpec): spec is JsonStringSpec & { substringOf: string } {
  return spec.substringOf !== undefined && spec.minLength <= 1 && spec.maxLength === Infinity && unfiltered(spec);
}

/** No pattern and no excluded strings: only lengths (and a verbatim source) constrain it. */
function unfiltered(spec: JsonStringSpec): boolean {
  return spec.pattern === undefined && (spec.exclude ?? []).length === 0 && (spec.excludePatterns ?? []).length === 0;
}

/** Characters from which a length-only string is computed rather than built (a built one needs
 *  ~14 states per character, over the inlining limit from here on). */
const LAZY_LENGTH_FROM = 4;

/** A string whose only condition is a long enough length bound. */
function isLongLengthOnly(spec: JsonStringSpec): boolean {
  return spec.substringOf === undefined && unfiltered(spec) && (spec.maxLength === Infinity ? spec.minLength : spec.maxLength) >= LAZY_LENGTH_FROM;
}
