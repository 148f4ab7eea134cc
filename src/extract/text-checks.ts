/** Input checks on the document text, with errors that say what is wrong and where. */
import { PocketExtractError } from "../errors.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function checkText(text: unknown): asserts text is string {
  if (typeof text !== "string") {
    throw new PocketExtractError("TEXT_INVALID", `text must be a string, got ${text === null ? "null" : typeof text}`);
  }
  if (text.trim().length === 0) throw new PocketExtractError("TEXT_EMPTY", "text is empty: there is nothing to extract from");
  const m = LONE_SURROGATE.exec(text);
  if (m) {
    throw new PocketExtractError(
      "TEXT_INVALID",
      `text has a lone UTF-16 surrogate (0x${m[0].charCodeAt(0).toString(16)}) at offset ${m.index}: it is not valid Unicode; repair or remove it`,
    );
  }
}
