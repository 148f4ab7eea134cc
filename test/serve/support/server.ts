/** A service on loopback for the tests: a pool over the given extractors, and JSON/SSE helpers. */
import { createExtractor, type Extractor } from "../../../src/extract/index.js";
import type { Engine } from "../../../src/engines/engine.js";
import { ExtractorPool, type PoolOptions } from "../../../src/pool/index.js";
import { createServer, type PocketServer, type ServerOptions } from "../../../src/serve/index.js";

export interface TestServer {
  readonly url: string;
  readonly server: PocketServer;
  readonly pool: ExtractorPool;
  close(): Promise<void>;
}

/** `size` extractors over one engine (test engines keep sessions apart), or the given extractors. */
export async function startServer(
  source: Engine | readonly Extractor[],
  options: { size?: number; pool?: PoolOptions; server?: Omit<ServerOptions, "pool">; maxTokens?: number } = {},
): Promise<TestServer> {
  const extractors = Array.isArray(source)
    ? (source as readonly Extractor[])
    : await Promise.all(Array.from({ length: options.size ?? 1 }, () => createExtractor({ engine: source as Engine, maxTokens: options.maxTokens ?? 64 })));
  const pool = new ExtractorPool(extractors, options.pool);
  const server = createServer({ pool, ...options.server });
  const { url } = await server.listen(0);
  return { url, server, pool, close: () => server.close(1000) };
}

export async function postJson(url: string, body: unknown, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body), ...init });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The frames of a server-sent event stream: `{ event, data }` with `data` parsed unless "[DONE]". */
export async function readSse(res: Response): Promise<{ event: string | undefined; data: unknown }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((frame) => frame.trim() !== "")
    .map((frame) => {
      const lines = frame.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
      const data = lines.find((l) => l.startsWith("data: "))!.slice(6);
      return { event, data: data === "[DONE]" ? data : (JSON.parse(data) as unknown) };
    });
}

export const PERSON_SCHEMA = {
  type: "object",
  properties: { name: { type: "string", maxLength: 16 }, age: { type: "integer", minimum: 0, maximum: 150 } },
  required: ["name", "age"],
  additionalProperties: false,
} as const;
