// ESM consumer of the installed package: one extraction with the tiny GGUF fixture (argv[2]),
// with the Zod entry named by ZOD_ENTRY ("zod" unless set); prints one JSON line for the driver.
import { createRequire } from "node:module";
import { createExtractor } from "pocket-extract";

const zodEntry = process.env.ZOD_ENTRY ?? "zod";
const { z } = await import(zodEntry);
const zodVersion = createRequire(import.meta.url)("zod/package.json").version;

const schema = z.object({ name: z.string().max(16), age: z.number().int().min(0).max(150).nullable(), city: z.string().max(16).optional() });
const extractor = await createExtractor({ model: process.argv[2], maxTokens: 64 });
try {
  const result = await extractor.extract(schema, "Alice is 31 years old and lives in Paris.");
  console.log(JSON.stringify({
    consumer: "esm",
    zod: `${zodVersion} (${zodEntry})`,
    vocabulary: extractor.engine.vocabulary.width,
    ok: result.ok,
    data: result.data,
    raw: result.raw,
    fields: result.fields.map((f) => `${f.pointer} ${f.status}`),
  }));
} finally {
  await extractor.dispose();
}
