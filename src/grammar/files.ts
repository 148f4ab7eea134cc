/**
 * Loads the grammar files shipped in the package's `grammars/` folder (parsed once, cached).
 * The package root is found by walking up from this module to the nearest package.json named
 * "pocket-extract", so it works from src/ (tests, tsx) and from dist/ (the published package).
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PocketExtractError } from "../errors.js";
import { parseGbnf } from "./gbnf-parse.js";
import type { Grammar } from "./ir.js";

let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: unknown }).name === "pocket-extract") {
      root = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new PocketExtractError("GRAMMAR_SYNTAX", "cannot find the pocket-extract package root (grammars/ folder)");
    dir = parent;
  }
}

const cache = new Map<string, Grammar>();

/** `name` without extension, e.g. "json" or "format-date". */
export function loadGrammarFile(name: string): Grammar {
  let g = cache.get(name);
  if (g === undefined) {
    const file = join(packageRoot(), "grammars", `${name}.gbnf`);
    if (!existsSync(file)) throw new PocketExtractError("GRAMMAR_SYNTAX", `grammar file ${file} is missing`);
    g = parseGbnf(readFileSync(file, "utf8"));
    cache.set(name, g);
  }
  return g;
}
