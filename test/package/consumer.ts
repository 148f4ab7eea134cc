/**
 * The package as a user gets it (`npm run test:package`, run by .ci/run): `npm pack` (its prepack
 * builds dist/ and the prebuilt addon), the tarball's files checked against an allow-list, then two
 * consumer projects in a fresh temporary folder outside the repository, one with zod 4 and one with
 * zod 3 (+ zod-to-json-schema), each installing the tarball and its dependencies from the registry
 * and running, with a PATH that provably holds no C/C++ compiler: an ESM and a CJS script that
 * extract with the tiny GGUF fixture through createExtractor({ model }), an ESM and a CJS script on
 * the grammar tier (pocket-extract/grammar), `tsc --noEmit` on typed
 * consumers (a wrong field must be a type error), and the installed `pocket-extract --help`. The
 * installed addon's RUNPATH must hold only $ORIGIN-relative folders, and ldd must resolve its
 * llama.cpp libraries inside the consumer project. Last, in the zod 3 project: a platform without a
 * prebuild (a typed error without a compiler, a source build with one) and a zod 3 schema without
 * zod-to-json-schema (a typed error). Prints every step; exits 1 on the first failure.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONSUMER_FILES = join(ROOT, "test", "package", "consumer");
const ADDON = "node_modules/pocket-extract/prebuilds/linux-x64/pocket_llama.node";

/** Every file the tarball may hold (anything else is a leftover); the required ones must be there. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/[\w-]+\.(js|cjs|d\.ts|d\.cts)(\.map)?$/,
  /^grammars\/[\w-]+\.gbnf$/,
  /^prebuilds\/linux-x64\/pocket_llama\.node$/,
  /^native\/(build|toolchain)\.mjs$/,
  /^native\/README\.md$/,
  /^native\/src\/[\w-]+\.(cpp|h)$/,
  /^native\/llama-include\/(LICENSE|include\/[\w-]+\.h|ggml\/include\/[\w-]+\.h)$/,
];
const REQUIRED = [
  "package.json",
  ...["index", "grammar", "testing"].flatMap((entry) => [`dist/${entry}.js`, `dist/${entry}.cjs`, `dist/${entry}.d.ts`, `dist/${entry}.d.cts`]),
  "dist/cli.js",   "prebuilds/linux-x64/pocket_llama.node",
  "native/llama-include/include/llama.h",
];
const COMPILERS = ["g++", "c++", "cc", "gcc", "clang", "clang++"];

class Failure extends Error {}

function step(title: string): void {
  console.log(`\n== ${title}`);
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Failure(message);
}

function run(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): SpawnSyncReturns<string> {
  const result = spawnSync(cmd, args, { cwd: options.cwd, env: options.env ?? process.env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) {
    throw new Failure(`${cmd} ${args.join(" ")} (in ${options.cwd}) exited with ${result.status ?? result.signal}\n${result.stdout}\n${result.stderr}`);
  }
  return result;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`;

/** `npm pack` into `dir`; returns the tarball path after checking its files. */
function packTarball(dir: string): string {
  step("npm pack (prepack: tsup build + prebuilt llama.cpp addon)");
  const started = Date.now();
  const out = run("npm", ["pack", "--pack-destination", dir, "--json", "--loglevel", "warn"], { cwd: ROOT }).stdout;
  const info = JSON.parse(out.slice(out.indexOf("\n[") + 1)) as [{ filename: string; size: number; unpackedSize: number }];
  const tarball = join(dir, info[0].filename);
  console.log(`packed in ${((Date.now() - started) / 1000).toFixed(1)} s: ${basename(tarball)}, ${mb(info[0].size)} (unpacked ${mb(info[0].unpackedSize)})`);

  step("tarball file list against the allow-list");
  const listing = run("tar", ["-tvzf", tarball], { cwd: dir }).stdout.trim().split("\n");
  const files = listing.map((line) => {
    const fields = line.trim().split(/\s+/);
    return { size: Number(fields[2]), path: fields[fields.length - 1]!.replace(/^package\//, "") };
  });
  for (const f of files) console.log(`${String(f.size).padStart(9)}  ${f.path}`);
  const stray = files.filter((f) => !ALLOWED.some((re) => re.test(f.path)));
  check(stray.length === 0, `files outside the allow-list: ${stray.map((f) => f.path).join(", ")}`);
  const missing = REQUIRED.filter((path) => !files.some((f) => f.path === path));
  check(missing.length === 0, `required files missing from the tarball: ${missing.join(", ")}`);
  console.log(`${files.length} files, all allowed; tarball ${mb(statSync(tarball).size)}`);
  return tarball;
}

/** An environment whose PATH is one folder holding only node and npm: no compiler can be found. */
function compilerFreeEnv(work: string): NodeJS.ProcessEnv {
  const bin = join(work, "bin");
  mkdirSync(bin);
  const npmCli = [process.env.npm_execpath, join(dirname(process.execPath), "..", "lib", "node_modules", "npm", "bin", "npm-cli.js")]
    .find((p): p is string => p !== undefined && p.endsWith("npm-cli.js") && existsSync(p));
  check(npmCli !== undefined, "npm-cli.js not found (set npm_execpath)");
  symlinkSync(process.execPath, join(bin, "node"));
  symlinkSync(npmCli, join(bin, "npm"));
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, LANG: process.env.LANG, CI: process.env.CI };
  step(`compiler-free PATH=${bin} (${readdirSync(bin).join(", ")})`);
  for (const compiler of COMPILERS) {
    const found = spawnSync("/bin/sh", ["-c", `command -v ${compiler}`], { env, encoding: "utf8" });
    check(found.status !== 0, `${compiler} is reachable on the consumer PATH: ${found.stdout.trim()}`);
  }
  console.log(`command -v ${COMPILERS.join(" / ")}: none found (as required)`);
  return env;
}

interface Consumer {
  readonly name: string;
  readonly packages: readonly string[];
  /** Zod entries the extract scripts are run with. */
  readonly zodEntries: readonly string[];
}

function installConsumer(work: string, consumer: Consumer, tarball: string, env: NodeJS.ProcessEnv): string {
  const dir = join(work, consumer.name);
  mkdirSync(dir);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: consumer.name, private: true, version: "1.0.0" }, null, 2)}\n`);
  step(`${consumer.name}: npm install ${basename(tarball)} ${consumer.packages.join(" ")} (empty project, registry, compiler-free PATH)`);
  const started = Date.now();
  const install = run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, ...consumer.packages], { cwd: dir, env });
  console.log(install.stdout.trim());
  if (install.stderr.trim()) console.log(install.stderr.trim());
  check(!install.stderr.includes("install-scripts"), "npm reports install scripts to approve: the package must have none");
  const du = run("du", ["-sb", "node_modules"], { cwd: dir }).stdout;
  const sizes = readdirSync(join(dir, "node_modules"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("."))
    .flatMap((d) => (d.name.startsWith("@") ? readdirSync(join(dir, "node_modules", d.name)).map((n) => `${d.name}/${n}`) : [d.name]))
    .map((name) => ({ name, bytes: Number(run("du", ["-sb", join("node_modules", name)], { cwd: dir }).stdout.split("\t")[0]) }))
    .sort((a, b) => b.bytes - a.bytes);
  console.log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s; node_modules ${mb(Number(du.split("\t")[0]))}; largest: ${sizes.slice(0, 5).map((s) => `${s.name} ${mb(s.bytes)}`).join(", ")}`);
  for (const file of readdirSync(CONSUMER_FILES)) copyFileSync(join(CONSUMER_FILES, file), join(dir, file));
  return dir;
}

function checkAddonLinkage(dir: string): void {
  step(`${relative(dir, join(dir, ADDON))}: readelf -d (dynamic section) and ldd`);
  const dynamic = run("readelf", ["-d", ADDON], { cwd: dir }).stdout;
  const lines = dynamic.split("\n").filter((l) => /\((NEEDED|RUNPATH|RPATH)\)/.test(l));
  console.log(lines.join("\n"));
  const paths = lines.filter((l) => /\((RUNPATH|RPATH)\)/.test(l)).flatMap((l) => /\[(.*)\]/.exec(l)?.[1]!.split(":") ?? []);
  check(paths.length > 0, "the addon has no RUNPATH: it could not find the llama.cpp libraries");
  const absolute = paths.filter((p) => !p.startsWith("$ORIGIN"));
  check(absolute.length === 0, `RUNPATH holds paths not relative to $ORIGIN: ${absolute.join(", ")}`);
  const ldd = run("ldd", [ADDON], { cwd: dir }).stdout;
  const llama = ldd.split("\n").filter((l) => /lib(llama|ggml)/.test(l));
  console.log(llama.map((l) => l.trim()).join("\n"));
  check(!ldd.includes("not found"), `ldd cannot resolve every library:\n${ldd}`);
  const libs = join(dir, "node_modules", "@node-llama-cpp", "linux-x64");
  const resolved = llama.map((l) => resolve(/=> (\S+)/.exec(l)?.[1] ?? "/"));
  check(llama.length > 0 && resolved.every((p) => p.startsWith(libs)), `libllama/libggml do not resolve inside ${libs}: ${resolved.join(", ")}`);
}

/**
 * The tiny fixture has random weights, so its values are noise and `ok` is often false (a required
 * field left null); what must hold is the grammar's guarantee: complete JSON of the schema's shape
 * (null only as the escape for a missing value), and the same greedy output from ESM and CJS.
 */
function checkShape(script: string, raw: string): void {
  const value = JSON.parse(raw) as Record<string, unknown>;
  const extra = Object.keys(value).filter((k) => !["name", "age", "city"].includes(k));
  check(extra.length === 0, `${script}: fields outside the schema: ${extra.join(", ")}`);
  check(value.name === null || (typeof value.name === "string" && [...value.name].length <= 16), `${script}: name is not a string of at most 16 characters`);
  check(value.age === null || (Number.isInteger(value.age) && (value.age as number) >= 0 && (value.age as number) <= 150), `${script}: age is not an integer in 0..150`);
}

function runExtractScripts(dir: string, consumer: Consumer, env: NodeJS.ProcessEnv): void {
  for (const zodEntry of consumer.zodEntries) {
    const raws: string[] = [];
    for (const script of ["extract.mjs", "extract.cjs"]) {
      step(`${consumer.name}: ZOD_ENTRY=${zodEntry} node ${script} model.gguf`);
      const out = run("node", [script, "model.gguf"], { cwd: dir, env: { ...env, ZOD_ENTRY: zodEntry } });
      if (out.stderr.trim()) console.log(out.stderr.trim());
      const line = out.stdout.trim().split("\n").pop() ?? "";
      console.log(line);
      const result = JSON.parse(line) as { ok: boolean; data: unknown; raw: string; vocabulary: number };
      checkShape(script, result.raw);
      check(result.vocabulary === 65536, `${script}: vocabulary width ${result.vocabulary}, expected the fixture's 65,536`);
      check(result.ok === (result.data !== null), `${script}: ok and data disagree`);
      raws.push(result.raw);
    }
    check(raws[0] === raws[1], `ESM and CJS decoded differently (greedy):\n${raws.join("\n")}`);
  }
}

/**
 * The grammar tier (pocket-extract/grammar) from ESM and CJS: a JSON Schema compiled for a
 * byte-per-token vocabulary accepts a document through its matcher, and its GBNF parses back to
 * the same text; both module systems must print the same line.
 */
function runGrammarScripts(dir: string, consumer: Consumer, env: NodeJS.ProcessEnv): void {
  const lines: string[] = [];
  for (const script of ["grammar.mjs", "grammar.cjs"]) {
    step(`${consumer.name}: node ${script} (pocket-extract/grammar)`);
    const line = run("node", [script], { cwd: dir, env }).stdout.trim().split("\n").pop() ?? "";
    console.log(line);
    const result = JSON.parse(line) as { consumer: string; accepted: boolean; complete: boolean; roundTrip: boolean };
    check(result.accepted && result.complete, `${script}: the matcher did not accept the document`);
    check(result.roundTrip, `${script}: printGbnf(parseGbnf(gbnf)) is not the printed grammar`);
    lines.push(line.replace(`"consumer":"${result.consumer}",`, ""));
  }
  check(lines[0] === lines[1], `ESM and CJS grammar tiers differ:\n${lines.join("\n")}`);
}

function typecheckAndBin(dir: string, consumer: Consumer, env: NodeJS.ProcessEnv): void {
  step(`${consumer.name}: tsc --noEmit (typed.mts: ESM types, typed-require.cts: CJS types; @ts-expect-error on wrong fields)`);
  run("node", [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: dir, env });
  console.log("tsc: no errors, and every @ts-expect-error line is an error");
  step(`${consumer.name}: node_modules/.bin/pocket-extract --help`);
  const help = run(join(dir, "node_modules", ".bin", "pocket-extract"), ["--help"], { cwd: dir, env }).stdout;
  console.log(help.split("\n").slice(0, 6).join("\n"));
  check(/usage/i.test(help) && help.includes("pocket-extract"), "--help printed no usage");
}

/**
 * A platform without a prebuild, played by deleting the installed one: without a compiler the load
 * is ENGINE_UNAVAILABLE naming the platform and g++; with g++ back on PATH the addon is built from
 * the sources and headers in the tarball on first use, and the extraction runs.
 */
function checkSourceBuild(dir: string, env: NodeJS.ProcessEnv): void {
  step("no prebuild (deleted from the install), compiler-free PATH: node extract.mjs model.gguf");
  rmSync(join(dir, "node_modules", "pocket-extract", "prebuilds"), { recursive: true });
  const failed = spawnSync("node", ["extract.mjs", "model.gguf"], { cwd: dir, env, encoding: "utf8" });
  const message = failed.stderr.split("\n").find((l) => l.startsWith("PocketExtractError:")) ?? failed.stderr;
  console.log(message.trim());
  check(failed.status !== 0 && failed.stderr.includes("ENGINE_UNAVAILABLE"), `expected ENGINE_UNAVAILABLE, got exit ${failed.status}:\n${failed.stderr}`);
  check(message.includes("linux-x64") && message.includes("g++"), "the error does not name the platform and what to install");
  step("no prebuild, g++ on PATH: the addon is built from the tarball's sources on first use");
  const built = run("node", ["extract.mjs", "model.gguf"], { cwd: dir, env: { ...env, PATH: `${env.PATH}:${process.env.PATH}` } });
  console.log(`${built.stderr.trim()}\n${built.stdout.trim()}`);
  checkShape("extract.mjs after a source build", (JSON.parse(built.stdout.trim().split("\n").pop() ?? "") as { raw: string }).raw);
}

/** zod 3 schemas without the optional peer zod-to-json-schema: a typed error saying what to install. */
function checkMissingZodToJsonSchema(dir: string, env: NodeJS.ProcessEnv): void {
  step("zod 3 schema, zod-to-json-schema removed from the install: node extract.mjs model.gguf");
  rmSync(join(dir, "node_modules", "zod-to-json-schema"), { recursive: true });
  const failed = spawnSync("node", ["extract.mjs", "model.gguf"], { cwd: dir, env, encoding: "utf8" });
  const message = failed.stderr.split("\n").find((l) => l.startsWith("SchemaError:")) ?? failed.stderr;
  console.log(message.trim());
  check(failed.status !== 0 && failed.stderr.includes("SCHEMA_UNSUPPORTED") && message.includes("npm install zod-to-json-schema"), `expected SCHEMA_UNSUPPORTED naming zod-to-json-schema, got exit ${failed.status}:\n${failed.stderr}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), "pocket-extract-consumer-"));
  check(relative(ROOT, work).startsWith(".."), `the temporary folder ${work} is inside the repository`);
  console.log(`consumer test in ${work} (npm cache: ${run("npm", ["config", "get", "cache"], { cwd: ROOT }).stdout.trim()})`);
  try {
    const model = await ensureGgufFixture("tiny");
    const tarball = packTarball(work);
    const env = compilerFreeEnv(work);
    const consumers: Consumer[] = [
      { name: "consumer-zod4", packages: ["zod@^4"], zodEntries: ["zod"] },
      // The lowest zod 3 in the peer range: the newest is as likely to work, the oldest less so.
      { name: "consumer-zod3", packages: ["zod@3.25.28", "zod-to-json-schema@^3.24.0"], zodEntries: ["zod", "zod/v4"] },
    ];
    for (const consumer of consumers) {
      const dir = installConsumer(work, consumer, tarball, env);
      copyFileSync(model, join(dir, "model.gguf"));
      if (consumer === consumers[0]) checkAddonLinkage(dir);
      runExtractScripts(dir, consumer, env);
      runGrammarScripts(dir, consumer, env);
      typecheckAndBin(dir, consumer, env);
    }
    const zod3 = join(work, consumers[consumers.length - 1]!.name);
    checkSourceBuild(zod3, env);
    checkMissingZodToJsonSchema(zod3, env);
    console.log(`\nconsumer test passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`\nconsumer test FAILED: ${err instanceof Failure ? err.message : err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
