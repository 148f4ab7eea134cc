/**
 * Enqueue: one job per input line, job id = the document's id, so enqueuing the same documents
 * twice adds nothing (BullMQ keeps one job per id, and ids that already have a result are
 * skipped). The schema is converted to JSON Schema, checked by the schema compiler (an unsupported
 * keyword fails here, before any job exists) and stored once by digest. A line that is not a
 * document gets its INPUT_INVALID error record at once (a line over the reader's limit its
 * LINE_TOO_LONG): nothing to retry.
 */
import { errorRecord, parseInputLine, type Line, type RecordKey } from "../records/index.js";
import { toJsonSchema } from "../schema/index.js";
import { compileSchema } from "../schema-compiler/index.js";
import { documentKey, openRedis, storeKeys, type QueueLocation } from "./connection.js";
import { jobOptions, openQueue, type DocumentJob, type RetryPolicy } from "./jobs.js";
import { ResultStore, SchemaStore } from "./stores.js";

export interface EnqueueOptions extends QueueLocation, RetryPolicy {
  /** A Zod schema or a JSON Schema. */
  readonly schema: unknown;
  readonly textField?: string;
  readonly idField?: string;
}

export interface EnqueueSummary {
  readonly schemaDigest: string;
  /** Documents handed to the queue (ids already queued are kept once by BullMQ). */
  readonly submitted: number;
  /** Documents skipped because the result store already has their result. */
  readonly alreadyDone: number;
  /** Lines recorded as INPUT_INVALID or LINE_TOO_LONG. */
  readonly invalid: number;
}

const BATCH = 500;

export async function enqueueLines(options: EnqueueOptions, lines: AsyncIterable<Line>): Promise<EnqueueSummary> {
  const jsonSchema = toJsonSchema(options.schema) as Record<string, unknown>;
  compileSchema(jsonSchema, { mode: "extraction" });
  const redis = openRedis(options);
  const queue = openQueue(options);
  const keys = storeKeys(options);
  const results = new ResultStore(redis, keys.results);
  const fields = { textField: options.textField ?? "text", idField: options.idField ?? "id" };
  let submitted = 0;
  let alreadyDone = 0;
  let invalid = 0;
  try {
    const schemaDigest = await new SchemaStore(redis, keys.schemas).put(jsonSchema);
    let batch: DocumentJob[] = [];
    const flush = async (): Promise<void> => {
      const done = await results.existing(batch.map((d) => d.id));
      const fresh = batch.filter((_, i) => !done[i]);
      alreadyDone += batch.length - fresh.length;
      await queue.addBulk(fresh.map((data) => ({ name: "extract", data, opts: { ...jobOptions(options), jobId: documentKey(data.id) } })));
      submitted += fresh.length;
      batch = [];
    };
    for await (const line of lines) {
      const key = (id: string | number): RecordKey => ({ line: line.number, id, inputSha256: line.sha256 });
      if (line.oversized) {
        invalid++;
        await results.put(errorRecord(key(line.number), "LINE_TOO_LONG", `line ${line.number} is ${line.bytes} bytes, over the line limit; it was skipped unread`));
        continue;
      }
      const input = parseInputLine(line.text, line.number, fields);
      if (input.kind === "blank") continue;
      if (input.kind === "invalid") {
        invalid++;
        await results.put(errorRecord(key(input.id), "INPUT_INVALID", input.message));
        continue;
      }
      batch.push({ id: input.id, line: line.number, inputSha256: line.sha256, text: input.text, schema: schemaDigest });
      if (batch.length >= BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    return { schemaDigest, submitted, alreadyDone, invalid };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
