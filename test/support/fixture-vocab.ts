/** The 64K fixture vocabulary, loaded once per test worker. */
import { ensureFixtureTokenizer } from "../../fixtures/vocab/index.js";
import { loadTokenizerJson } from "../../src/tokens/index.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";

let loading: Promise<Vocabulary> | undefined;

export function fixtureVocabulary(): Promise<Vocabulary> {
  loading ??= ensureFixtureTokenizer().then((path) => loadTokenizerJson(path, { width: 65536 }));
  return loading;
}
