/**
 * The error codes our N-API addons (pocket_llama, pocket_mnn) set on the errors they throw, and
 * their mapping to the SDK's typed errors.
 */
import { PocketExtractError } from "../../errors.js";

export type NativeErrorCode = "FREED" | "BUSY" | "MASK_SIZE" | "NO_LOGITS" | "LOGITS" | "RANGE" | "DECODE" | "LOAD" | "TOKENIZE";

export function nativeErrorCode(err: unknown): NativeErrorCode | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? (code as NativeErrorCode) : undefined;
}

/** A native error as a typed error: a freed handle means the engine was disposed. */
export function typedNativeError(err: unknown, engine: string, doing: string): PocketExtractError {
  if (err instanceof PocketExtractError) return err;
  const message = err instanceof Error ? err.message : String(err);
  switch (nativeErrorCode(err)) {
    case "FREED":
      return new PocketExtractError("ENGINE_DISPOSED", `the ${engine} engine is disposed`, { cause: err });
    case "MASK_SIZE":
      return new PocketExtractError("MASK_SIZE", message, { cause: err });
    case "LOGITS":
      // NaN or infinite logits: no token chosen from them means anything (sampling them as
      // -infinity used to give output like "!!!!").
      return new PocketExtractError(
        "LOGITS_INVALID",
        `${engine} produced invalid logits (${message}). The model file is likely corrupted or mis-converted: re-download or re-convert it.`,
        { cause: err },
      );
    default:
      return new PocketExtractError("ENGINE_FAILED", `${engine} ${doing} failed: ${message}`, { cause: err });
  }
}
