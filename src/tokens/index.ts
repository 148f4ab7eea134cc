/**
 * Public face of the vocabulary layer: token id -> exact bytes (loaders for HuggingFace
 * byte-level BPE tokenizer.json and for engine-provided bytes) and the flat token trie the mask
 * engine walks. Nothing here knows about grammars or engines.
 */
export type { Vocabulary } from "./vocabulary.js";
export { loadTokenizerJson, DEFAULT_EOS_TOKENS, DEFAULT_PAD_TOKEN, type TokenizerJsonOptions } from "./tokenizer-json.js";
export { vocabularyFromBytes, type VocabularyFromBytesOptions } from "./from-bytes.js";
export { byteLevelToBytes, bytesToByteLevel } from "./byte-level.js";
export { TokenTrie } from "./trie.js";
export { encodePlainText, encodeSegments, specialSpellings, type PromptSegment } from "./plain-text.js";
export type { ChatTemplate, ChatTurns } from "./chat-template.js";
export { packBytes } from "./packed.js";
