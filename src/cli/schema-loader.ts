/**
 * Loads the schema named on the command line: `file.json` is a JSON Schema document; any other
 * file is a module (TypeScript or JavaScript, loaded with jiti so users need no build step) that
 * exports a Zod schema. `file.ts#Name` picks the export `Name`; without it the default export is
 * used, else the only schema-like export. Every failure is a UsageError naming the file.
 */
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createJiti } from "jiti";
import { UsageError } from "./args.js";

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
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`--schema: ${file}: no such file`);
  if (file.toLowerCase().endsWith(".json")) {
    if (exportName !== undefined) throw new UsageError(`--schema: ${file} is JSON: "#${exportName}" only applies to modules`);
    try {
      return { schema: JSON.parse(await readFile(file, "utf8")) as unknown, label: file };
    } catch (err) {
      throw new UsageError(`--schema: ${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  let module: Record<string, unknown>;
  try {
    // The schema file is the resolution base, so its own imports (zod...) resolve from its folder.
    const jiti = createJiti(pathToFileURL(file).href, { interopDefault: false });
    module = await jiti.import<Record<string, unknown>>(file);
  } catch (err) {
    throw new UsageError(`--schema: cannot load ${file}: ${(err as Error).message}`);
  }
  return { schema: pickExport(module, file, exportName), label: exportName === undefined ? file : `${file}#${exportName}` };
}

function pickExport(module: Record<string, unknown>, file: string, exportName: string | undefined): unknown {
  const names = Object.keys(module).filter((k) => k !== "__esModule");
  if (exportName !== undefined) {
    if (!(exportName in module)) throw new UsageError(`--schema: ${file} has no export "${exportName}" (exports: ${names.join(", ") || "none"})`);
    return module[exportName];
  }
  if (module.default !== undefined) return module.default;
  const schemas = names.filter((k) => isZodLike(module[k]));
  if (schemas.length === 1) return module[schemas[0]];
  throw new UsageError(
    schemas.length === 0
      ? `--schema: ${file} exports no Zod schema (exports: ${names.join(", ") || "none"})`
      : `--schema: ${file} exports several schemas (${schemas.join(", ")}): pick one with ${file}#Name`,
  );
}

function isZodLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { safeParse?: unknown }).safeParse === "function";
}
