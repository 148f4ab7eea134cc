/**
 * MaskBench corpus files (`{ schema, tests: [{ valid, data, description }] }`): listing, a
 * deterministic seeded sample, and loading with each test instance serialized the way the
 * benchmark does (Python `json.dumps`, numbers as Python re-prints them; see python-json.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonKeepingNumbers, pythonJsonDumps, PYTHON_SEPARATORS, type LexJson, type Separators } from "./python-json.js";
import { mulberry32 } from "../../src/engines/testing/prng.js";

/** The dev sample of MaskBench, relative to the project root. */
export const DEFAULT_MASKBENCH_DIR = "../shared/corpora/jsonschemabench/maskbench";

export interface MaskbenchTest {
  readonly valid: boolean;
  readonly description: string;
  /** The instance as serialized text. */
  readonly text: string;
  /** The instance as parsed (numbers kept as written), for the order check (key-order.ts). */
  readonly data: LexJson;
}

export interface MaskbenchFile {
  readonly name: string;
  readonly schema: unknown;
  readonly tests: readonly MaskbenchTest[];
}

/** Sorted `.json` file names of a MaskBench directory, or undefined when it does not exist. */
export function listMaskbench(dir: string): string[] | undefined {
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
}

/** `count` names chosen by a seeded shuffle (same seed, same sample); all of them when count is undefined. */
export function sampleNames(names: readonly string[], count: number | undefined, seed: number): string[] {
  if (count === undefined || count >= names.length) return [...names];
  const random = mulberry32(seed);
  const pool = [...names];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

export function loadMaskbench(dir: string, name: string, separators: Separators = PYTHON_SEPARATORS): MaskbenchFile {
  const text = readFileSync(join(dir, name), "utf8");
  const lexed = parseJsonKeepingNumbers(text);
  const tests = lexed instanceof Map && Array.isArray(lexed.get("tests")) ? (lexed.get("tests") as LexJson[]) : [];
  return {
    name,
    schema: (JSON.parse(text) as { schema: unknown }).schema,
    tests: tests.map((test) => {
      const entry = test as Map<string, LexJson>;
      const data = entry.get("data") ?? null;
      return {
        valid: entry.get("valid") === true,
        description: typeof entry.get("description") === "string" ? (entry.get("description") as string) : "",
        text: pythonJsonDumps(data, separators),
        data,
      };
    }),
  };
}
