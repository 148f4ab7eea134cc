// CommonJS consumer of the installed package: the same extraction as extract.mjs through require().
const { createExtractor } = require("pocket-extract");

const zodEntry = process.env.ZOD_ENTRY ?? "zod";
const { z } = require(zodEntry);
const zodVersion = require("zod/package.json").version;

async function main() {
  const schema = z.object({ name: z.string().max(16), age: z.number().int().min(0).max(150).nullable(), city: z.string().max(16).optional() });
  const extractor = await createExtractor({ model: process.argv[2], maxTokens: 64 });
  try {
    const result = await extractor.extract(schema, "Alice is 31 years old and lives in Paris.");
    console.log(JSON.stringify({
      consumer: "cjs",
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
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
