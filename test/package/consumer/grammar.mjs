// ESM consumer of the grammar tier (import resolution: dist/grammar.js).
import * as tier from "pocket-extract/grammar";
import grammarOnce from "./grammar-once.cjs";

grammarOnce("esm", tier);
