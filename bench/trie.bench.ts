/**
 * `npm run bench:trie`: loads the 64K fixture vocabulary, builds the TokenTrie N times (after a
 * warm-up) and prints the median/min build time, node and token counts, and memoryBytes.
 */
import { ensureFixtureTokenizer, FIXTURE_WIDTH } from "../fixtures/vocab/index.js";
import { loadTokenizerJson, TokenTrie } from "../src/tokens/index.js";

const RUNS = Number(process.env.RUNS ?? 21);
const WARMUP = 3;

const t0 = performance.now();
const vocab = await loadTokenizerJson(await ensureFixtureTokenizer(), { width: FIXTURE_WIDTH });
console.log(`vocabulary: width ${vocab.width}, size ${vocab.size}, loaded in ${(performance.now() - t0).toFixed(0)} ms`);

const times: number[] = [];
let trie = TokenTrie.build(vocab);
for (let i = 0; i < WARMUP + RUNS; i++) {
  const start = performance.now();
  trie = TokenTrie.build(vocab);
  if (i >= WARMUP) times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(`trie build: median ${median.toFixed(1)} ms, min ${times[0]!.toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms (${RUNS} runs after ${WARMUP} warm-up)`);
console.log(`nodes ${trie.numNodes}, tokens ${trie.numTokens}, max depth ${trie.maxDepth}, memory ${trie.memoryBytes} bytes (${(trie.memoryBytes / 2 ** 20).toFixed(2)} MiB)`);
