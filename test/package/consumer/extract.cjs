// CommonJS consumer of the installed package (require resolution: dist/index.cjs), with the Zod
// entry named by ZOD_ENTRY ("zod" unless set); the model path is argv[2].
const { createExtractor } = require("pocket-extract");
const extractOnce = require("./extract-once.cjs");

const zodEntry = process.env.ZOD_ENTRY ?? "zod";
const { z } = require(zodEntry);
const zodVersion = require("zod/package.json").version;
extractOnce("cjs", createExtractor, z, `${zodVersion} (${zodEntry})`, process.argv[2]).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
