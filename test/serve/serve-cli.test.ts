/**
 * `pocket-extract serve` as a real process (RandomEngine in place of the model, see
 * test/cli/support/random-cli.ts): it listens, answers, and on SIGTERM stops accepting, finishes
 * the request in flight and exits 0. Also its usage errors (exit 2 before anything starts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ROOT, captureIo, startTsx } from "../cli/support/harness.js";
import { observedEngine } from "./support/engines.js";
import { PERSON_SCHEMA } from "./support/server.js";

const RANDOM_CLI = join(ROOT, "test/cli/support/random-cli.ts");

describe("pocket-extract serve (subprocess)", () => {
  it("serves, then on SIGTERM finishes the request in flight and exits 0", async () => {
    const { child, exited } = startTsx(RANDOM_CLI, ["serve", "--port", "0", "--pool", "2", "--shutdown-grace", "20"], { POCKET_TEST_STEP_DELAY_MS: "5" });
    try {
      let stderr = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on("data", (d: Buffer) => {
          stderr += d.toString();
          const m = /listening on (http:\/\/\S+) \(2 engines\)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        void exited.then((e) => reject(new Error(`serve exited early: ${e.stderr}`)));
      });
      const health = (await (await fetch(`${url}/healthz`)).json()) as { engines: number };
      expect(health.engines).toBe(2);
      const inFlight = fetch(`${url}/v1/extract`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ schema: PERSON_SCHEMA, text: "Alice is 30." }) });
      await new Promise((resolve) => setTimeout(resolve, 150));
      child.kill("SIGTERM");
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { fields: unknown[] }).fields).toHaveLength(2);
      const end = await exited;
      expect(end.code, end.stderr).toBe(0);
      expect(end.stderr).toMatch(/SIGTERM: no new requests/);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);

  it("usage errors exit 2 with the option named, before anything starts", async () => {
    const engine = await observedEngine();
    const run = async (...argv: string[]) => {
      const io = captureIo(engine);
      return { code: await runCli(argv, io), err: io.err() };
    };
    const pool = await run("serve", "--pool", "0");
    expect(pool.code).toBe(2);
    expect(pool.err).toMatch(/--pool must be an integer >= 1/);
    const unknown = await run("worker", "--queue", "q", "--frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/frobnicate/);
    const help = captureIo(engine);
    expect(await runCli(["serve", "--help"], help)).toBe(0);
    expect(help.out()).toMatch(/pocket-extract serve --model/);
    expect(engine.sessions).toBe(0);
  });
});
