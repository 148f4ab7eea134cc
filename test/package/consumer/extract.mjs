// ESM consumer of the installed package (import resolution: dist/index.js), with the Zod entry
// named by ZOD_ENTRY ("zod" unless set); the model path is argv[2].
import { createRequire } from "node:module";
import { createExtractor } from "pocket-extract";
import extractOnce from "./extract-once.cjs";

const zodEntry = process.env.ZOD_ENTRY ?? "zod";
const { z } = await import(zodEntry);
const zodVersion = createRequire(import.meta.url)("zod/package.json").version;
await extractOnce("esm", createExtractor, z, `${zodVersion} (${zodEntry})`, process.argv[2]);
