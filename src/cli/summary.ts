/**
 * The run summary: documents by status and error code, field status distribution, tokens and
 * decode time over the whole output file (records of an earlier run included when resuming), and
 * throughput of this run alone (what the wall clock measured). Printed on stderr and written as
 * JSON with `--summary-json`.
 */
import { DOCUMENT_STATUSES, FIELD_STATUSES, type DocumentStatus } from "../report/index.js";
import type { FieldStatus } from "../ground/index.js";
import type { OutputRecord } from "../records/index.js";

export interface Summary {
  /** Every document in the output file. */
  readonly documents: { readonly total: number } & Readonly<Record<DocumentStatus, number>>;
  /** Failed documents by error code. */
  readonly errors: Readonly<Record<string, number>>;
  readonly fields: Readonly<Record<FieldStatus, number>>;
  readonly tokens: { readonly prompt: number; readonly sampled: number; readonly forced: number; readonly completed: number };
  /** Decode time summed over documents; `maskShare` = maskMs / decodeMs. */
  readonly time: { readonly decodeMs: number; readonly maskMs: number; readonly engineMs: number; readonly maskShare: number };
  readonly thisRun: {
    /** Documents this run wrote (earlier records of a resumed file excluded). */
    readonly documents: number;
    /** Documents found already done in the output (--resume). */
    readonly resumedFrom: number;
    /** Loading the schema and the model, compiling the grammar, reading the earlier output. */
    readonly setupMs: number;
    /** From the first document read to the last result written; the rates divide by it. */
    readonly batchMs: number;
    readonly documentsPerSecond: number;
    readonly outputTokensPerSecond: number;
  };
  /** The signal that stopped the run before its input was exhausted, if one did. */
  readonly interrupted: "SIGINT" | "SIGTERM" | null;
}

type Counts<K extends string> = Record<K, number>;
const zeros = <K extends string>(keys: readonly K[]): Counts<K> => Object.fromEntries(keys.map((k) => [k, 0])) as Counts<K>;

export class SummaryBuilder {
  readonly documents = zeros(DOCUMENT_STATUSES);
  private readonly errors: Record<string, number> = {};
  private readonly fields = zeros(FIELD_STATUSES);
  private readonly tokens = { prompt: 0, sampled: 0, forced: 0, completed: 0 };
  private readonly time = { decodeMs: 0, maskMs: 0, engineMs: 0 };
  private resumedFrom = 0;
  private thisRun = 0;
  private thisRunOutputTokens = 0;

  /** Counts a record; `earlier` marks one found in the output by --resume. */
  add(record: OutputRecord, earlier: boolean): void {
    this.documents[record.status]++;
    if (earlier) this.resumedFrom++;
    else this.thisRun++;
    if (record.error) {
      this.errors[record.error.code] = (this.errors[record.error.code] ?? 0) + 1;
      return;
    }
    for (const f of record.fields) this.fields[f.status]++;
    const s = record.stats;
    this.tokens.prompt += s.promptTokens;
    this.tokens.sampled += s.tokensSampled;
    this.tokens.forced += s.tokensForced;
    this.tokens.completed += s.tokensCompleted;
    this.time.decodeMs += s.totalMs;
    this.time.maskMs += s.maskMs;
    this.time.engineMs += s.engineMs;
    if (!earlier) this.thisRunOutputTokens += s.tokensSampled + s.tokensForced + s.tokensCompleted;
  }

  /** Documents in the output so far. */
  get total(): number {
    return this.resumedFrom + this.thisRun;
  }

  /** True when some document failed or does not satisfy the schema (exit code 1). */
  get anyFailed(): boolean {
    return this.documents.failed + this.documents.invalid > 0;
  }

  build(time: { readonly setupMs: number; readonly batchMs: number }, interrupted: Summary["interrupted"]): Summary {
    const seconds = time.batchMs / 1000;
    return {
      documents: { total: this.total, ...this.documents },
      errors: { ...this.errors },
      fields: { ...this.fields },
      tokens: { ...this.tokens },
      time: { ...this.time, maskShare: this.time.decodeMs > 0 ? this.time.maskMs / this.time.decodeMs : 0 },
      thisRun: {
        documents: this.thisRun,
        resumedFrom: this.resumedFrom,
        setupMs: time.setupMs,
        batchMs: time.batchMs,
        documentsPerSecond: seconds > 0 ? this.thisRun / seconds : 0,
        outputTokensPerSecond: seconds > 0 ? this.thisRunOutputTokens / seconds : 0,
      },
      interrupted,
    };
  }
}

/** The summary as a few human-readable lines. */
export function formatSummary(s: Summary): string {
  const pairs = (o: Readonly<Record<string, number>>): string =>
    Object.entries(o)
      .map(([k, n]) => `${k} ${n}`)
      .join(", ") || "none";
  const { total, ...byStatus } = s.documents;
  const r = s.thisRun;
  const lines = [
    `documents  ${total} (${pairs(byStatus)})${r.resumedFrom > 0 ? `; ${r.resumedFrom} from the earlier run` : ""}`,
    `errors     ${pairs(s.errors)}`,
    `fields     ${pairs(s.fields)}`,
    `tokens     prompt ${s.tokens.prompt}, sampled ${s.tokens.sampled}, forced ${s.tokens.forced}, completed ${s.tokens.completed}`,
    `this run   ${r.documents} documents in ${(r.batchMs / 1000).toFixed(1)} s (+${(r.setupMs / 1000).toFixed(1)} s setup): ${r.documentsPerSecond.toFixed(2)} docs/s, ${r.outputTokensPerSecond.toFixed(1)} output tokens/s`,
    `decode     ${(s.time.decodeMs / 1000).toFixed(1)} s, mask ${(100 * s.time.maskShare).toFixed(1)}%, engine ${(s.time.engineMs / 1000).toFixed(1)} s`,
  ];
  if (s.interrupted) lines.push(`interrupted by ${s.interrupted}: rerun with --resume to finish`);
  return `${lines.join("\n")}\n`;
}
