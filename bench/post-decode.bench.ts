/**
 * Worst cases of the steps that run after decoding, on the hostile schemas of issue 15 at the
 * default limits: `npm run bench:post-decode [-- --runs N]`
 *
 * Each step runs on the JS thread, so its worst case is a stall of every other request: the
 * target is under 50 ms each. Steps: ajv validation (`validate`), the null-escape pass
 * (`resolveNullEscapes`, which validates twice), grounding (`groundFields`), the repeated-key
 * scan of the raw text, and `verifyOutput` (all of them, as the extractor runs them). Cases: the
 * deepest `$defs` anyOf chain maxSchemaExpansion accepts, with a failing (null) and a valid
 * value; an anyOf chain of depth 40 given straight to grounding (no compile in the way); an
 * object at maxSchemaProperties with the fields a 512-token output can hold; objects nested to
 * maxSchemaDepth; a document at maxTextBytes with 100 string fields to ground (fuzzy tier on).
 * Prints the median and max over the runs, in ms.
 */
import { parseArgs } from "node:util";
import { compileGrammar } from "../src/mask/index.js";
import { DEFAULT_MAX_TEXT_BYTES } from "../src/extract/options.js";
import { resolveNullEscapes } from "../src/extract/null-escapes.js";
import { verifyOutput } from "../src/extract/verify-output.js";
import { DEFAULT_SCHEMA_LIMITS } from "../src/schema/index.js";
import { groundFields } from "../src/ground/index.js";
import type { JsonSchema } from "../src/schema/index.js";
import { duplicateKeyIssues, validate } from "../src/validate/index.js";
import { fixtureVocabulary } from "../test/support/fixture-vocab.js";
import { anyOfChain, deepestAcceptedChain, deepObject, wideObject, wideValue } from "../test/hostile/schemas.js";
import { median } from "./support/stats.js";
import { fmt, formatTable } from "./support/table.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const runs = Number(values.runs);

const vocabulary = await fixtureVocabulary();
const accepts = (schema: unknown): void => void compileGrammar(schema, vocabulary, { cache: false });
const depth = deepestAcceptedChain(accepts);

interface Case {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly raw: string;
  readonly text: string;
}

let deepValue: unknown = "abc";
for (let i = 0; i < DEFAULT_SCHEMA_LIMITS.maxSchemaDepth - 1; i++) deepValue = { a: deepValue, b: i };
const bigText = "客户王小明购买了3台笔记本电脑，型号为锐思Book Pro 14，单价¥6,299.00。".repeat(DEFAULT_MAX_TEXT_BYTES / 100).slice(0, DEFAULT_MAX_TEXT_BYTES / 3);
const manyStrings: Record<string, unknown> = {};
for (let i = 0; i < 100; i++) manyStrings[`field_${i}`] = i % 3 === 0 ? "锐思Book Pro 15" : `价格${i}元 笔记本`;

const cases: Case[] = [
  { name: `anyOf chain depth ${depth} (limit), null`, schema: anyOfChain(depth), raw: '{"v":null}', text: "abc" },
  { name: `anyOf chain depth ${depth} (limit), valid`, schema: anyOfChain(depth), raw: '{"v":"abc"}', text: "abc" },
  { name: "anyOf chain depth 40, grounding only", schema: anyOfChain(40), raw: '{"v":null}', text: "abc" },
  { name: `${DEFAULT_SCHEMA_LIMITS.maxSchemaProperties} properties, 120 written`, schema: wideObject(DEFAULT_SCHEMA_LIMITS.maxSchemaProperties), raw: JSON.stringify(wideValue(120)), text: "v1 v3 v5" },
  { name: `nesting ${DEFAULT_SCHEMA_LIMITS.maxSchemaDepth - 1}`, schema: deepObject(DEFAULT_SCHEMA_LIMITS.maxSchemaDepth - 1), raw: JSON.stringify(deepValue), text: "abc 1 2 3" },
  { name: `text ${DEFAULT_MAX_TEXT_BYTES / 1024} KiB, 100 strings`, schema: wideObject(100), raw: JSON.stringify(manyStrings), text: bigText },
];

const steps: Record<string, (c: Case) => unknown> = {
  validate: (c) => validate(JSON.parse(c.raw), c.schema),
  "null escapes": (c) => resolveNullEscapes(JSON.parse(c.raw), (v) => validate(v, c.schema).issues),
  grounding: (c) => groundFields(JSON.parse(c.raw), c.text, { schema: c.schema }),
  "repeated keys": (c) => duplicateKeyIssues(c.raw),
  verifyOutput: (c) => verifyOutput({ raw: c.raw, text: c.text, jsonSchema: c.schema as Record<string, unknown> }),
};
const skip = (c: Case, step: string): boolean => c.name.includes("grounding only") && step !== "grounding";

const rows: string[][] = [];
for (const c of cases) {
  const row = [c.name];
  for (const [step, run] of Object.entries(steps)) {
    if (skip(c, step)) {
      row.push("-");
      continue;
    }
    run(c); // warm: ajv compiles its validator, grounding indexes the text
    const times: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      run(c);
      times.push(performance.now() - t);
    }
    row.push(`${fmt(median(times))} / ${fmt(Math.max(...times))}`);
  }
  rows.push(row);
}
console.log(`post-decode steps, ms (median / max of ${runs} runs); target: under 50 ms each\n`);
console.log(formatTable(["case", ...Object.keys(steps)], rows));
