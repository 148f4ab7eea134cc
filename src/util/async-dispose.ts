/**
 * The key of `[Symbol.asyncDispose]` (`await using`). Node has the well-known symbol from 20.4;
 * on an older runtime this falls back to `Symbol.for("Symbol.asyncDispose")`, the symbol that
 * esbuild's lowering of `await using` looks up there, so no global polyfill is installed.
 */
export function asyncDisposeSymbol(symbols: { readonly asyncDispose?: symbol } = Symbol): typeof Symbol.asyncDispose {
  return (symbols.asyncDispose ?? Symbol.for("Symbol.asyncDispose")) as typeof Symbol.asyncDispose;
}

export const ASYNC_DISPOSE: typeof Symbol.asyncDispose = asyncDisposeSymbol();
