/**
 * Loads the schema named on the command line: `file.json` is a JSON Schema document; any other
 * file is a module (TypeScript or JavaScript, loaded with jiti so users need no build step) that
 * exports a Zod schema. `file.ts#Name` picks the export `Name`; without it the default export is
 * used, else the only schema-like export (an own export: `#__proto__` or `#constructor` name no
 * export, not something inherited). Every failure is a typed error naming the file.
 *
 * Loading a module RUNS it, with the user's rights: `--schema` must name code the user trusts. jiti's
 * transpile cache is off: by default it lives in a shared temporary folder where another local user
 * could plant a "cached" module that would run instead of the file named.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createJiti } from "jiti";
import { FileError } from "../errors.js";
import { openRegularFile, readRegularFile } from "./files.js";

/** Largest JSON Schema file read. */
export const MAX_SCHEMA_FILE_BYTES = 16 * 1024 * 1024;

export interface LoadedSchema {
  /** A Zod schema or a JSON Schema object, as `extract()` accepts it. */
  readonly schema: unknown;
  /** What was loaded, for messages: `path#Export` or the path. */
  readonly label: string;
}

export async function loadSchema(spec: string): Promise<LoadedSchema> {
  const hash = spec.lastIndexOf("#");
  const file = resolve(hash > 0 ? spec.slice(0, hash) : spec);
  const exportName = hash > 0 ? spec.slice(hash + 1) : undefined;
  if (file.toLowerCase().endsWith(".json")) {
    if (exportName !== undefined) throw new FileError("SCHEMA_EXPORT", file, `--schema: a JSON file: "#${exportName}" only applies to modules`);
    const text = await readRegularFile(file, "--schema", MAX_SCHEMA_FILE_BYTES);
    try {
      return { schema: JSON.parse(text) as unknown, label: file };
    } catch (err) {
      throw new FileError("SCHEMA_INVALID", file, `--schema: not valid JSON (${(err as Error).message})`);
    }
  }
  await (await openRegularFile(file, "--schema")).close();
  let module: Record<string, unknown>;
  try {
    // The schema file is the resolution base, so its own imports (zod...) resolve from its folder.
    const jiti = createJiti(pathToFileURL(file).href, { interopDefault: false, fsCache: false });
    module = await jiti.import<Record<string, unknown>>(file);
  } catch (err) {
    throw new FileError("SCHEMA_INVALID", file, `--schema: cannot load the module: ${(err as Error).message}`);
  }
  return { schema: pickExport(module, file, exportName), label: exportName === undefined ? file : `${file}#${exportName}` };
}

function pickExport(module: Record<string, unknown>, file: string, exportName: string | undefined): unknown {
  const names = Object.keys(module).filter((k) => k !== "__esModule");
  if (exportName !== undefined) {
    if (!names.includes(exportName)) throw new FileError("SCHEMA_EXPORT", file, `--schema: no export "${exportName}" (exports: ${names.join(", ") || "none"})`);
    return module[exportName];
  }
  if (module.default !== undefined) return module.default;
  const schemas = names.filter((k) => isZodLike(module[k]));
  const [only, ...others] = schemas;
  if (only !== undefined && others.length === 0) return module[only];
  throw new FileError(
    "SCHEMA_EXPORT",
    file,
    schemas.length === 0
      ? `--schema: exports no Zod schema (exports: ${names.join(", ") || "none"})`
      : `--schema: exports several schemas (${schemas.join(", ")}): pick one with ${file}#Name`,
  );
}

function isZodLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function";
}
