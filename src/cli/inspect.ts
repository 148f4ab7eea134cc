/**
 * `pocket-extract inspect`: what the extractor will do with a schema, without a model: the compile
 * report (which keywords the grammar enforces, which are validated after decoding, which are
 * annotations), the size of the byte automaton, the grammar as GBNF that llama.cpp loads
 * (widenings, if any, listed in its opening comment), and the prompt for a sample text. A
 * keyword the compiler cannot handle fails here, with its name and schema path.
 */
import { buildAutomaton } from "../automaton/index.js";
import { DEFAULT_MAX_TEXT_BYTES } from "../extract/index.js";
import { buildPrompt } from "../prompt/index.js";
import { printLlamaGbnf } from "../regex/index.js";
import { compileSchema, type KeywordUse } from "../schema-compiler/index.js";
import type { InspectArgs } from "./args.js";
import { readRegularFile } from "./files.js";
import type { CliIo } from "./io.js";
import { loadSchema } from "./schema-loader.js";

const SAMPLE_TEXT = "(the document text goes here)";

export async function inspectCommand(args: InspectArgs, io: CliIo): Promise<number> {
  const { schema, label } = await loadSchema(args.schema);
  const text = args.textFile !== undefined ? await readRegularFile(args.textFile, "--text-file", DEFAULT_MAX_TEXT_BYTES) : (args.text ?? SAMPLE_TEXT);
  // The options the extractor compiles with (extraction mode, compact output).
  const compiled = compileSchema(schema, { mode: "extraction", format: "compact" });
  const dfa = buildAutomaton(compiled.grammar);
  const prompt = buildPrompt({ jsonSchema: compiled.jsonSchema, text });
  const { enforced, validatedAfter, annotations } = compiled.report;
  io.stdout.write(
    [
      `schema: ${label}`,
      "",
      "== compile report",
      keywordList("enforced by the grammar", enforced),
      keywordList("validated after decoding", validatedAfter),
      keywordList("annotations (no effect on validity)", annotations),
      `automaton: ${dfa.ruleCount} rules, ${dfa.ruleStates} rule states, ${dfa.numClasses} byte classes`,
      "",
      "== JSON Schema",
      JSON.stringify(compiled.jsonSchema, null, 2),
      "",
      "== grammar (GBNF)",
      printLlamaGbnf(compiled.grammar).trimEnd(),
      "",
      `== prompt (${prompt.language})`,
      prompt.full,
      "",
    ].join("\n"),
  );
  return 0;
}

function keywordList(title: string, uses: readonly KeywordUse[]): string {
  const rows = [...uses]
    .sort((a, b) => a.pointer.localeCompare(b.pointer) || a.keyword.localeCompare(b.keyword))
    .map((u) => `  ${u.pointer || "#"}  ${u.keyword}${u.note ? `  (${u.note})` : ""}`);
  return [`${title} (${uses.length}):`, ...rows].join("\n");
}
