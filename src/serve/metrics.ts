/**
 * Prometheus metrics of the service, on a registry of its own (several servers in one process,
 * as in tests, never collide): requests by route and status, documents by outcome, tokens by
 * origin (sampled by the model, forced by the grammar, completed by the budget), per-document
 * mask and engine time, field statuses, and the engine pool's busy and waiting counts.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ExtractResult } from "../extract/index.js";
import type { ExtractorPool } from "../pool/index.js";
import { documentStatus } from "../report/index.js";

const TIME_BUCKETS_SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class ServeMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: "pocket_http_requests_total", help: "HTTP requests by route and status code", labelNames: ["route", "status"], registers: [this.registry] });
  private readonly documents = new Counter({ name: "pocket_documents_total", help: "Documents extracted, by document status (ok, missing, fabricated, invalid, failed)", labelNames: ["status"], registers: [this.registry] });
  private readonly tokens = new Counter({ name: "pocket_tokens_total", help: "Output tokens by origin: sampled by the model, forced by the grammar, completed by the budget", labelNames: ["origin"], registers: [this.registry] });
  private readonly fields = new Counter({ name: "pocket_fields_total", help: "Extracted fields by status (found, missing, fabricated, inferred, invalid)", labelNames: ["status"], registers: [this.registry] });
  private readonly maskSeconds = new Histogram({ name: "pocket_mask_seconds", help: "Time spent computing token masks, per document", buckets: TIME_BUCKETS_SECONDS, registers: [this.registry] });
  private readonly engineSeconds = new Histogram({ name: "pocket_engine_seconds", help: "Time spent in the engine (prefill and sampling), per document", buckets: TIME_BUCKETS_SECONDS, registers: [this.registry] });
  private readonly requestSeconds = new Histogram({ name: "pocket_http_request_seconds", help: "HTTP request duration by route", labelNames: ["route"], buckets: TIME_BUCKETS_SECONDS, registers: [this.registry] });

  constructor(pool: ExtractorPool) {
    collectDefaultMetrics({ register: this.registry, prefix: "pocket_" });
    new Gauge({ name: "pocket_pool_engines", help: "Engines in the pool", registers: [this.registry], collect() { this.set(pool.size); } });
    new Gauge({ name: "pocket_pool_busy", help: "Engines running a request", registers: [this.registry], collect() { this.set(pool.busy); } });
    new Gauge({ name: "pocket_queue_depth", help: "Requests waiting for a free engine", registers: [this.registry], collect() { this.set(pool.waiting); } });
  }

  request(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.requestSeconds.observe({ route }, seconds);
  }

  /** One finished extraction: its document status, tokens, times and field statuses. */
  document(result: ExtractResult<unknown>): void {
    this.documents.inc({ status: documentStatus({ result }) });
    const s = result.stats;
    this.tokens.inc({ origin: "sampled" }, s.tokensSampled);
    this.tokens.inc({ origin: "forced" }, s.tokensForced);
    this.tokens.inc({ origin: "completed" }, s.tokensCompleted);
    this.maskSeconds.observe(s.maskMs / 1000);
    this.engineSeconds.observe(s.engineMs / 1000);
    for (const f of result.fields) this.fields.inc({ status: f.status });
  }

  failedDocument(): void {
    this.documents.inc({ status: "failed" });
  }
}
