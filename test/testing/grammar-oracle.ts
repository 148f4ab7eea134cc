/**
 * The reference the testing kit is checked against: the token grammar the real Extractor compiles
 * for a schema (fixture vocabulary), driven through its Matcher, independent of the byte walker
 * under test.
 */
import { createExtractor, type Extractor } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

const encoder = new TextEncoder();

/** An extractor whose scripted "model" writes whatever `script` returns for the current call. */
export async function scriptedExtractor(script: () => string): Promise<Extractor> {
  const vocabulary = await fixtureVocabulary();
  return createExtractor({ engine: new ScriptedEngine({ vocabulary, script: () => script() }) });
}

/** True when the extractor's grammar for `schema` accepts `text` as a complete output. */
export function grammarAccepts(extractor: Extractor, schema: unknown, text: string): boolean {
  const matcher = extractor.compile(schema).tokens.matcher();
  return matcher.acceptBytes(encoder.encode(text)) && matcher.isComplete();
}
