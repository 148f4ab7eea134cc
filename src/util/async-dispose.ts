/**
 * The key of `[Symbol.asyncDispose]` (`await using`). Node has the well-known symbol from 20.4;
 * on an older runtime this falls back to `Symbol.for("Symbol.asyncDispose")`, the symbol that
 * esbuild's lowering of `await using` looks up there, so no global polyfill is installed.
 */
// The well-known symbol's type, as @types/node and lib.esnext.disposable declare it (the same
// declaration merges with theirs), so the published types check in a consumer that has neither.
declare global {
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}

export function asyncDisposeSymbol(symbols: { readonly asyncDispose?: symbol } = Symbol): typeof Symbol.asyncDispose {
  return (symbols.asyncDispose ?? Symbol.for("Symbol.asyncDispose")) as typeof Symbol.asyncDispose;
}

export const ASYNC_DISPOSE: typeof Symbol.asyncDispose = asyncDisposeSymbol();
