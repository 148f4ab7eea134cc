// TypeScript consumer (ESM resolution, dist/index.d.ts): `result.data` has the schema's inferred type, and a field
// the schema does not have is a type error. Checked with `tsc --noEmit`, never run.
import { createExtractor, type ExtractResult } from "pocket-extract";
import { compileGrammar, printGbnf, type CompiledGrammar, type Vocabulary } from "pocket-extract/grammar";
// @ts-expect-error the grammar automaton is the grammar tier's, not the application tier's
import { buildAutomaton } from "pocket-extract";
import { z } from "zod";

const Person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()) });

export async function firstTag(model: string): Promise<string | undefined> {
  const extractor = await createExtractor({ model });
  const result: ExtractResult<{ name: string; age: number; tags: string[] }> = await extractor.extract(Person, "Alice, 31");
  if (result.data === null) return undefined;
  const age: number = result.data.age;
  // @ts-expect-error `nickname` is not a field of Person
  const nickname: string = result.data.nickname;
  // @ts-expect-error `name` is a string, not a number
  const wrong: number = result.data.name;
  return age > 0 ? (result.data.tags[0] ?? nickname ?? String(wrong)) : undefined;
}

// The grammar tier's types: a compiled grammar's matcher and its GBNF text.
export function gbnfOf(vocabulary: Vocabulary): { gbnf: string; complete: boolean } {
  const compiled: CompiledGrammar = compileGrammar(Person, vocabulary);
  const complete: boolean = compiled.tokens.matcher().isComplete();
  // @ts-expect-error printGbnf takes the grammar IR, not the compiled grammar
  printGbnf(compiled);
  void buildAutomaton; // only here for the @ts-expect-error on its import
  return { gbnf: printGbnf(compiled.grammar), complete };
}
