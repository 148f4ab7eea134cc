// The extraction both consumer scripts run, given the package's createExtractor and a Zod module
// as each module system resolved them: one extraction with the tiny GGUF fixture, one JSON line out.
module.exports = async function extractOnce(consumer, createExtractor, z, zodLabel, model) {
  const schema = z.object({ name: z.string().max(16), age: z.number().int().min(0).max(150).nullable(), city: z.string().max(16).optional() });
  const extractor = await createExtractor({ model, maxTokens: 64 });
  try {
    const result = await extractor.extract(schema, "Alice is 31 years old and lives in Paris.");
    console.log(JSON.stringify({
      consumer,
      zod: zodLabel,
      vocabulary: extractor.engine.vocabulary.width,
      ok: result.ok,
      data: result.data,
      raw: result.raw,
      fields: result.fields.map((f) => `${f.pointer} ${f.status}`),
    }));
  } finally {
    await extractor.dispose();
  }
};
