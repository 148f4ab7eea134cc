/** Input checks on the document text, with errors that say what is wrong and where. */
import { PocketExtractError } from "../errors.js";
import { DEFAULT_MAX_TEXT_BYTES } from "./options.js";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Checks the document before any other work: its UTF-8 size first (counted without encoding
 *  it), so an oversized text costs nothing more than the count. */
export function checkText(text: unknown, maxBytes = DEFAULT_MAX_TEXT_BYTES): asserts text is string {
  if (typeof text !== "string") {
    throw new PocketExtractError("TEXT_INVALID", `text must be a string, got ${text === null ? "null" : typeof text}`);
  }
  checkTextBytes(text, maxBytes, "text");
  if (text.trim().length === 0) throw new PocketExtractError("TEXT_EMPTY", "text is empty: there is nothing to extract from");
  const m = LONE_SURROGATE.exec(text);
  if (m) {
    throw new PocketExtractError(
      "TEXT_INVALID",
      `text has a lone UTF-16 surrogate (0x${m[0].charCodeAt(0).toString(16)}) at offset ${m.index}: it is not valid Unicode; repair or remove it`,
    );
  }
}

/** TEXT_TOO_LONG when `text` (named `what` in the message) is over `maxBytes` of UTF-8. */
export function checkTextBytes(text: string, maxBytes: number, what: string): void {
  // Every UTF-16 unit is at least one UTF-8 byte: a string longer than the limit in units is over.
  const over = text.length > maxBytes;
  const bytes = over ? text.length : Buffer.byteLength(text, "utf8");
  if (bytes > maxBytes) {
    throw new PocketExtractError(
      "TEXT_TOO_LONG",
      `${what} is ${over ? "over " : ""}${bytes} bytes of UTF-8 (maxTextBytes is ${maxBytes}); split the document or raise maxTextBytes`,
    );
  }
}
