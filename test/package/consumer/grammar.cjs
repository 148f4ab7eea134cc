// CommonJS consumer of the grammar tier (require resolution: dist/grammar.cjs).
const tier = require("pocket-extract/grammar");
const grammarOnce = require("./grammar-once.cjs");

grammarOnce("cjs", tier);
