/**
 * The HTTP service on Fastify: `POST /v1/extract` (JSON or server-sent events),
 * `POST /v1/chat/completions` (OpenAI-compatible), `GET /healthz`, `GET /metrics`. Every request
 * takes an extractor from the pool (bounded wait; a full queue answers 429 with Retry-After), runs
 * under one abort signal (client gone, timeout, shutdown deadline), and any failure becomes a
 * typed `{ error: { code, message } }` with a 4xx or 5xx status: the server never crashes on a
 * request. `close(deadlineMs)` stops accepting, lets in-flight requests finish until the deadline,
 * then aborts the rest.
 */
import { setMaxListeners } from "node:events";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import { VERSION } from "../version.js";
import type { ExtractOptions, ExtractResult } from "../extract/index.js";
import type { ExtractorPool } from "../pool/index.js";
import { documentStatus } from "../report/index.js";
import { parseChatRequest } from "./chat-request.js";
import { chatChunk, chatCompletion, completionIdentity, usageChunk } from "./chat-response.js";
import { describeError } from "./errors.js";
import { parseExtractRequest } from "./extract-request.js";
import { ServeMetrics } from "./metrics.js";
import { ClientGoneError, requestSignal } from "./request-signal.js";
import { SseWriter } from "./sse.js";

export interface ServerOptions {
  readonly pool: ExtractorPool;
  /** Per-request limit, waiting for an engine included (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Largest request body (default 8 MiB). */
  readonly bodyLimitBytes?: number;
}

export interface PocketServer {
  readonly app: FastifyInstance;
  readonly metrics: ServeMetrics;
  /** Listens on host:port; returns the bound address (port 0 picks a free one). */
  listen(port: number, host?: string): Promise<{ port: number; url: string }>;
  /** Stops accepting, finishes in-flight requests until `deadlineMs`, aborts what is left. */
  close(deadlineMs?: number): Promise<void>;
}

/** Status recorded for a request whose client left before the answer (nginx's convention). */
const CLIENT_CLOSED = 499;

export function createServer(options: ServerOptions): PocketServer {
  const { pool } = options;
  const timeoutMs = options.requestTimeoutMs ?? 60_000;
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per request in flight, by design
  const metrics = new ServeMetrics(pool);
  /** Extraction requests being answered (close() waits for them, then drops every connection). */
  let inFlight = 0;
  const app = Fastify({ bodyLimit: options.bodyLimitBytes ?? 8 * 1024 * 1024, logger: false, return503OnClosing: true, forceCloseConnections: "idle" });

  /** Answers a request with its JSON result, or its typed error; never throws. */
  const respond = async (route: string, reply: FastifyReply, handle: (signal: AbortSignal) => Promise<unknown>): Promise<void> => {
    const started = performance.now();
    const guard = requestSignal(reply.raw, timeoutMs, shutdown.signal);
    inFlight++;
    try {
      const body = await handle(guard.signal);
      if (body !== undefined) await reply.code(200).send(body);
    } catch (err) {
      const reason = guard.signal.aborted ? guard.signal.reason : err;
      if (reason instanceof ClientGoneError) {
        reply.hijack(); // nothing to answer: the client is gone
        reply.raw.destroy();
      } else if (reply.sent || reply.raw.headersSent) reply.raw.end();
      else await sendError(reply, reason);
    } finally {
      inFlight--;
      guard.release();
      const status = reply.raw.writableFinished ? reply.raw.statusCode : CLIENT_CLOSED;
      metrics.request(route, status, (performance.now() - started) / 1000);
    }
  };

  /** One document on the pool (a long one's chunks spread over the idle engines), counted. */
  const extractAndCount = async (schema: unknown, text: string, options: ExtractOptions): Promise<ExtractResult<unknown>> => {
    try {
      const result = await pool.extract(schema, text, options);
      metrics.document(result);
      return result;
    } catch (err) {
      metrics.failedDocument();
      throw err;
    }
  };

  /**
   * Streams `extractor.stream` events as SSE frames; the first event is awaited before the 200 is
   * committed, so a request that fails at once still gets a plain HTTP error. `options` carries
   * the request's signal.
   */
  const streamOnPool = async (
    reply: FastifyReply,
    signal: AbortSignal,
    schema: unknown,
    text: string,
    options: ExtractOptions,
    frames: { start(sse: SseWriter): void; partial(sse: SseWriter, raw: string, partial: unknown): void; result(sse: SseWriter, result: ExtractResult<unknown>): void },
  ): Promise<undefined> => {
    await pool.use(async (extractor) => {
      const events = extractor.stream(schema, text, options);
      let sse: SseWriter | undefined;
      try {
        for await (const event of events) {
          if (!sse) {
            reply.hijack();
            sse = new SseWriter(reply.raw);
            frames.start(sse);
          }
          if (event.type === "partial") frames.partial(sse, event.raw, event.partial);
          else if (event.type === "result") {
            metrics.document(event.result);
            frames.result(sse, event.result);
          }
        }
      } catch (err) {
        metrics.failedDocument();
        if (!sse) throw err; // nothing sent yet: a plain HTTP error
        const reason = signal.aborted ? signal.reason : err;
        if (!(reason instanceof ClientGoneError)) sse.send(describeError(reason).body, "error");
      } finally {
        sse?.end();
      }
    }, signal);
    return undefined;
  };

  app.post("/v1/extract", (request, reply) =>
    respond("/v1/extract", reply, async (signal) => {
      const req = parseExtractRequest(request.body);
      const options = withoutUndefined({ ...req.options, signal });
      if (!req.stream) {
        const result = await extractAndCount(req.schema, req.text, options);
        return { status: documentStatus({ result }), ...result };
      }
      return streamOnPool(reply, signal, req.schema, req.text, options, {
        start() {},
        partial: (sse, raw, partial) => sse.send({ partial, raw }, "partial"),
        result: (sse, result) => sse.send({ status: documentStatus({ result }), ...result }, "result"),
      });
    }),
  );

  app.post("/v1/chat/completions", (request, reply) =>
    respond("/v1/chat/completions", reply, async (signal) => {
      const req = parseChatRequest(request.body);
      const options = withoutUndefined({ ...req.options, signal });
      const who = completionIdentity(req.model);
      if (!req.stream) {
        const result = await extractAndCount(req.schema, req.text, options);
        return chatCompletion(who, result);
      }
      let sent = "";
      return streamOnPool(reply, signal, req.schema, req.text, options, {
        start: (sse) => sse.send(chatChunk(who, { role: "assistant", content: "" })),
        partial(sse, raw) {
          // A token can end inside a UTF-8 character (decoded as U+FFFD): hold it back until complete.
          const stable = raw.replace(/\uFFFD+$/, "");
          if (stable.length > sent.length && stable.startsWith(sent)) {
            sse.send(chatChunk(who, { content: stable.slice(sent.length) }));
            sent = stable;
          }
        },
        result(sse, result) {
          const rest = result.raw.startsWith(sent) ? result.raw.slice(sent.length) : "";
          if (rest) sse.send(chatChunk(who, { content: rest }));
          sse.send(chatChunk(who, {}, result));
          if (req.includeUsage) sse.send(usageChunk(who, result));
          sse.done();
        },
      });
    }),
  );

  app.get("/healthz", async () => ({ status: shutdown.signal.aborted ? "stopping" : "ok", version: VERSION, engines: pool.size, busy: pool.busy, waiting: pool.waiting }));

  app.get("/metrics", async (_request, reply) => {
    reply.header("content-type", metrics.registry.contentType);
    return metrics.registry.metrics();
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({ error: { code: "NOT_FOUND", message: `no route ${request.method} ${request.url} (routes: POST /v1/extract, POST /v1/chat/completions, GET /healthz, GET /metrics)` } });
  });

  // Fastify's own refusals (malformed JSON, body over the limit, wrong content type) in our shape.
  app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
    const status = err.statusCode ?? 500;
    if (status >= 500) return sendError(reply, err);
    const code = status === 413 ? "REQUEST_TOO_LARGE" : "REQUEST_INVALID";
    return reply.code(status).send({ error: { code, message: err.message } });
  });

  return {
    app,
    metrics,
    async listen(port, host = "127.0.0.1") {
      await app.listen({ port, host });
      const address = app.server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      return { port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
    },
    async close(deadlineMs = 10_000) {
      const closing = app.close();
      const deadline = setTimeout(() => shutdown.abort(), deadlineMs);
      // Keep-alive connections (and half-closed ones of clients that left) would hold the server
      // open for their timeouts: close idle ones as they appear, and all once no extraction runs.
      const sweep = setInterval(() => (inFlight === 0 ? app.server.closeAllConnections() : app.server.closeIdleConnections()), 50);
      try {
        await closing;
      } finally {
        clearTimeout(deadline);
        clearInterval(sweep);
      }
    },
  };
}

async function sendError(reply: FastifyReply, err: unknown): Promise<void> {
  const { status, body, retryAfterSeconds } = describeError(err);
  if (retryAfterSeconds !== undefined) reply.header("retry-after", String(retryAfterSeconds));
  await reply.code(status).send(body);
}

/** Options with their unset members removed, so the extractor's defaults apply to them. */
function withoutUndefined(options: ExtractOptions): ExtractOptions {
  const { sampling, ...rest } = options;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const setSampling = Object.entries(sampling ?? {}).filter(([, v]) => v !== undefined);
  if (setSampling.length > 0) out.sampling = Object.fromEntries(setSampling);
  return out as ExtractOptions;
}
