/**
 * The package as a user gets it (`npm run test:package`, run by .ci/run): `npm pack` (its prepack
 * builds dist/ and the prebuilt addon), the tarball's files checked against an allow-list, then two
 * consumer projects in a fresh temporary folder outside the repository, one with zod 4 and one with
 * zod 3 (+ zod-to-json-schema), each installing the tarball and its dependencies from the registry
 * and running, with a PATH that provably holds no C/C++ compiler: an ESM and a CJS script that
 * extract with the tiny GGUF fixture through createExtractor({ model }), `tsc --noEmit` on typed
 * consumers (a wrong field must be a type error), and the installed `pocket-extract --help`. The
 * installed addon's RUNPATH must hold only $ORIGIN-relative folders, and ldd must resolve its
 * llama.cpp libraries inside the consumer project. Prints every step; exits 1 on the first failure.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureGgufFixture } from "../../fixtures/gguf/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONSUMER_FILES = join(ROOT, "test", "package", "consumer");
const ADDON = "node_modules/pocket-extract/prebuilds/linux-x64/pocket_llama.node";

/** Every file the tarball may hold (anything else is a leftover); the required ones must be there. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^dist\/[\w-]+\.(js|cjs|d\.ts|d\.cts)(\.map)?$/,
  /^grammars\/[\w-]+\.gbnf$/,
  /^prebuilds\/linux-x64\/pocket_llama\.node$/,
  /^native\/(build|build-mnn|toolchain)\.mjs$/,
  /^native\/README\.md$/,
  /^native\/src\/[\w-]+\.(cpp|h)$/,
  /^native\/llama-include\/(LICENSE|include\/[\w-]+\.h|ggml\/include\/[\w-]+\.h)$/,
];
const REQUIRED = ["package.json", "dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/cli.js", "prebuilds/linux-x64/pocket_llama.node", "native/llama-include/include/llama.h"];
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
    return { size: Number(fields[2]), path: fields[fields.length - 1].replace(/^package\//, "") };
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
  const paths = lines.filter((l) => /\((RUNPATH|RPATH)\)/.test(l)).flatMap((l) => /\[(.*)\]/.exec(l)?.[1].split(":") ?? []);
  check(paths.length > 0, "the addon has no RUNPATH: it could not find the llama.cpp libraries");
  const absolute = paths.filter((p) => !p.startsWith("$ORIGIN"));
  check(absolute.length === 0, `RUNPATH holds paths not relative to $ORIGIN: ${absolute.join(", ")}`);
  const ldd = run("ldd", [ADDON], { cwd: dir }).stdout;
  const llama = ldd.split("\n").filter((l) => /lib(llama|ggml)/.test(l));
  console.log(llama.map((l) => l.trim()).join("\n"));
  check(!ldd.includes("not found"), `ldd cannot resolve every library:\n${ldd}`);
  check(llama.length > 0 && llama.every((l) => l.includes(join(dir, "node_modules", "@node-llama-cpp", "linux-x64"))), "libllama/libggml do not resolve inside the consumer's node_modules");
}

function runExtractScripts(dir: string, consumer: Consumer, env: NodeJS.ProcessEnv): void {
  for (const zodEntry of consumer.zodEntries) {
    for (const script of ["extract.mjs", "extract.cjs"]) {
      step(`${consumer.name}: ZOD_ENTRY=${zodEntry} node ${script} model.gguf`);
      const out = run("node", [script, "model.gguf"], { cwd: dir, env: { ...env, ZOD_ENTRY: zodEntry } });
      if (out.stderr.trim()) console.log(out.stderr.trim());
      const line = out.stdout.trim().split("\n").pop() ?? "";
      console.log(line);
      const result = JSON.parse(line) as { ok: boolean; data: { name?: unknown; age?: unknown } | null; vocabulary: number };
      check(result.ok && result.data !== null, `${script}: the extraction is not ok`);
      check(typeof result.data.name === "string" && Number.isInteger(result.data.age), `${script}: data does not have the schema's shape`);
    }
  }
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
      { name: "consumer-zod3", packages: ["zod@^3.25.0", "zod-to-json-schema@^3.24.0"], zodEntries: ["zod", "zod/v4"] },
    ];
    for (const consumer of consumers) {
      const dir = installConsumer(work, consumer, tarball, env);
      copyFileSync(model, join(dir, "model.gguf"));
      if (consumer === consumers[0]) checkAddonLinkage(dir);
      runExtractScripts(dir, consumer, env);
      typecheckAndBin(dir, consumer, env);
    }
    console.log(`\nconsumer test passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`\nconsumer test FAILED: ${err instanceof Failure ? err.message : err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
