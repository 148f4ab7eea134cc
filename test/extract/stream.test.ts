/**
 * `extractor.stream()` through the public API on the test engines: partials only when they change,
 * strings that grow, no value its type forbids, each element of an array once with its report,
 * the AI SDK-shaped views, and cancellation (`break`, `return()`, `signal`) counted in forward
 * passes of a logging engine, never timed. The llama.cpp side is test/engines/llama-stream.test.ts.
 */
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createExtractor, type DeepPartial, type Extractor, type ExtractResult, type StreamElement, type StreamEvent } from "../../src/index.js";
import { RandomEngine } from "../../src/engines/testing/random-engine.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { parseJsonPrefix } from "../../src/extract/partial-json.js";
import { typedPartial } from "../../src/extract/typed-partial.js";
import type { Vocabulary } from "../../src/tokens/vocabulary.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";
import { expectStoppedWithinOneToken, LoggingEngine } from "../support/logging-engine.js";

const Order = z.object({
  product: z.string().describe("product name"),
  quantity: z.number().int().min(1),
  price: z.number().nullable(),
  status: z.enum(["paid", "pending"]),
  note: z.string().optional(),
});
const ORDER_TEXT = "客户购买了3台笔记本电脑，型号为锐思Book Pro 14，单价¥6,299.00，尚未付款。";
const ORDER_OUTPUT = '{"product":"锐思Book Pro 14","quantity":3,"price":6299,"status":"pending","note":null}';

const Person = z.object({ name: z.string(), age: z.number().int().nullable(), city: z.string().optional() });
const People = z.object({ people: z.array(Person), total: z.number() });
const PEOPLE_TEXT = "Emily Chen, 34, lives in Oslo; Bob is from Paris. Two people in all: 2.";
const PEOPLE_OUTPUT = '{"people":[{"name":"Emily Chen","age":34,"city":"Oslo"},{"name":"Bob","age":null,"city":"Paris"},{"name":"Zed","age":7,"city":null}],"total":2}';

let vocab: Vocabulary;
beforeAll(async () => {
  vocab = await fixtureVocabulary();
});

function scripted(output: string): Promise<Extractor> {
  return createExtractor({ engine: new ScriptedEngine({ vocabulary: vocab, script: output }) });
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const decoder = new TextDecoder();

/** The output after every step of the decode loop, rebuilt from what the engine was fed and
 *  sampled: a sampled token is one step, the grammar-forced run fed after it another. */
function stepOutputs(engine: LoggingEngine): string[] {
  const bytes: number[] = [];
  const steps: string[] = [];
  let promptFed = false;
  let pending: number | undefined;
  const step = (ids: readonly number[]): void => {
    for (const id of ids) bytes.push(...vocab.bytes(id));
    steps.push(decoder.decode(new Uint8Array(bytes), { stream: false }));
  };
  for (const c of engine.log) {
    if (c.call === "pass") {
      if (!promptFed) {
        promptFed = true;
        continue;
      }
      const forced = pending === undefined ? c.ids! : c.ids!.slice(1);
      pending = undefined;
      if (forced.length > 0) step(forced);
    } else if (c.call === "sample" && !vocab.eosIds.includes(c.ids![0]!)) {
      pending = c.ids![0]!;
      step([pending]);
    }
  }
  return steps;
}

describe("stream(): partials", () => {
  it("sends a partial only when it changed: as many events as distinct partials along the decode", async () => {
    const engine = new LoggingEngine(new ScriptedEngine({ vocabulary: vocab, script: ORDER_OUTPUT }));
    const ex = await createExtractor({ engine });
    const events = await collect(ex.stream(Order, ORDER_TEXT));
    const result = events.at(-1)!;
    if (result.type !== "result") throw new Error("the last event is the result");
    // A forced run that closes the document is never fed: it is the last step.
    const steps = stepOutputs(engine);
    if (steps.at(-1) !== result.result.raw) steps.push(result.result.raw);
    expect(result.result.raw.startsWith(steps.at(-2)!)).toBe(true);
    // The partial each step shows (a step can end inside a character: only whole ones count).
    const jsonSchema = ex.compile(Order).jsonSchema!;
    const shown = steps.map((s) => JSON.stringify(typedPartial(parseJsonPrefix(s.replace(/\uFFFD+$/, ""), { growingStrings: true }), jsonSchema)));
    const distinct = shown.filter((p, i) => p !== undefined && p !== shown[i - 1]);
    const partials = events.flatMap((e) => (e.type === "partial" ? [e.partial] : []));
    expect(partials.map((p) => JSON.stringify(p))).toEqual(distinct);
    expect(partials.length).toBeLessThan(steps.length);
    partials.forEach((p, i) => i > 0 && expect(p).not.toEqual(partials[i - 1]));
    expect(partials.at(-1)).toEqual(result.result.data);
  });

  it("shows a string as soon as its first characters are written, growing over several events", async () => {
    const ex = await scripted(ORDER_OUTPUT);
    const products = (await collect(ex.stream(Order, ORDER_TEXT).partialObjectStream)).flatMap((p) => (p.product === undefined ? [] : [p.product]));
    const growing = products.filter((p, i) => p !== products[i - 1]);
    expect(growing.length).toBeGreaterThanOrEqual(3);
    expect(growing[0]!.length).toBeGreaterThan(0);
    growing.forEach((p, i) => i > 0 && expect(p.startsWith(growing[i - 1]!) && p.length > growing[i - 1]!.length).toBe(true));
    expect(growing.at(-1)).toBe("锐思Book Pro 14");
  });

  it("each partial event's raw is the output so far, in whole characters", async () => {
    const ex = await scripted(ORDER_OUTPUT);
    const raws = (await collect(ex.stream(Order, ORDER_TEXT))).flatMap((e) => (e.type === "partial" ? [e.raw] : []));
    for (const raw of raws) {
      expect(ORDER_OUTPUT.startsWith(raw)).toBe(true);
      expect(raw).not.toMatch(/\uFFFD/);
    }
  });

  it("enum values appear once complete; a null the type forbids (a required field not stated) never appears", async () => {
    const ex = await scripted('{"product":null,"quantity":2,"price":null,"status":"pending","note":null}');
    const partials = await collect(ex.stream(Order, ORDER_TEXT).partialObjectStream);
    for (const p of partials) {
      expect(p.status === undefined || p.status === "pending").toBe(true);
      expect("product" in p).toBe(false); // answered null: absent, not null
      expect("note" in p).toBe(false); // optional, not nullable
    }
    expect(partials.at(-1)).toEqual({ quantity: 2, price: null, status: "pending" }); // price is nullable: null shows
  });

  it("no partial of random outputs holds a value its type forbids (checked by a zod schema of the partial type)", async () => {
    const Item = z.object({
      sku: z.string().max(6),
      qty: z.number().int(),
      kind: z.enum(["a", "bb", "ccc"]),
      tag: z.literal("x").optional(),
      note: z.string().max(5).nullable(),
    });
    const Doc = z.object({
      title: z.string().max(8),
      items: z.array(Item).max(3),
      status: z.enum(["open", "closed"]).nullable(),
      flag: z.boolean().optional(),
      meta: z.object({ n: z.number().nullable(), s: z.string().max(4).optional() }),
    });
    // DeepPartial<Doc> written out as a zod schema: every key optional, nothing else relaxed.
    const PartialItem = Item.partial().strict();
    const PartialDoc = z
      .object({
        title: z.string().max(8),
        items: z.array(PartialItem).max(3),
        status: z.enum(["open", "closed"]).nullable(),
        flag: z.boolean(),
        meta: z.object({ n: z.number().nullable(), s: z.string().max(4) }).partial().strict(),
      })
      .partial()
      .strict();
    // The declared partial type is what the checker accepts.
    expectTypeOf<DeepPartial<z.infer<typeof Doc>>>().toExtend<z.infer<typeof PartialDoc>>();
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 11, eosProbability: 0.3 }), maxTokens: 160 });
    let checked = 0;
    let runsWithNull = 0;
    for (let i = 0; i < 30; i++) {
      for await (const e of ex.stream(Doc, "Order book: two items, status open.")) {
        if (e.type !== "partial") {
          if (e.result.raw.includes("null")) runsWithNull++;
          continue;
        }
        const verdict = PartialDoc.safeParse(e.partial);
        expect(verdict.success, `${JSON.stringify(e.partial)} from ${e.raw}: ${verdict.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(runsWithNull).toBeGreaterThan(0); // the random outputs did use the null escape
  });
});

describe("stream(): elements", () => {
  it("elementStream yields each element once, when complete, with its field reports", async () => {
    const ex = await scripted(PEOPLE_OUTPUT);
    const stream = ex.stream(People, PEOPLE_TEXT, { elements: "people" });
    const events = await collect(stream);
    const result = await stream.result;
    const elements = events.flatMap((e) => (e.type === "element" ? [e.element] : []));
    expect(elements.map((e) => e.index)).toEqual([0, 1, 2]);
    expect(elements.map((e) => e.data)).toEqual(result.data!.people);
    // Each element arrives before the partial that starts the next one is complete, and before the result.
    const at = (i: number): number => events.findIndex((e) => e.type === "element" && e.element.index === i);
    const firstWithSecondName = events.findIndex((e) => e.type === "partial" && e.partial.people?.[1]?.name === "Bob");
    expect(at(0)).toBeLessThan(firstWithSecondName);
    expect(at(2)).toBeLessThan(events.length - 1);
    // Its reports are the final result's reports for its fields.
    for (const el of elements) {
      const prefix = `/people/${el.index}`;
      expect(el.fields).toEqual(result.fields.filter((f) => f.pointer.startsWith(`${prefix}/`)));
    }
    expect(elements[0]!.fields.map((f) => f.status)).toEqual(["found", "found", "found"]);
    expect(elements[1]!.fields.find((f) => f.pointer === "/people/1/age")!.status).toBe("missing");
    expect(elements[2]!.grounded).toBe(false); // "Zed" and 7 are not in the text
    expect(elements[2]!.fields.find((f) => f.pointer === "/people/2/name")!.status).toBe("fabricated");
    expect(elements[2]!.partial).toEqual({ name: "Zed", age: 7 }); // city: null is the optional escape
    expectTypeOf(elements[0]!).toEqualTypeOf<StreamElement<z.infer<typeof Person>>>();
  });

  it("streams the items of a root array by default; an element with a required field answered null is not ok", async () => {
    const Rows = z.array(z.object({ name: z.string(), role: z.enum(["admin", "user"]) }));
    const ex = await scripted('[{"name":"Emily Chen","role":"admin"},{"name":"Bob","role":null}]');
    const stream = ex.stream(Rows, "Emily Chen (admin) and Bob.");
    const elements = await collect(stream.elementStream);
    const result = await stream.result;
    expect(elements.map((e) => e.index)).toEqual([0, 1]);
    const first = elements[0]!;
    const second = elements[1]!;
    expect(first.ok && first.data).toEqual({ name: "Emily Chen", role: "admin" });
    expect(second.ok).toBe(false);
    expect(second.data).toBeNull();
    expect(second.partial).toEqual({ name: "Bob" });
    expect(second.fields.find((f) => f.pointer === "/1/role")!.status).toBe("invalid");
    expect(second.issues.length).toBeGreaterThan(0);
    expect(second.issues).toEqual(result.issues.filter((i) => i.pointer.startsWith("/1/")));
    if (first.ok) expectTypeOf(first.data).toEqualTypeOf<{ name: string; role: "admin" | "user" }>();
  });

  it("random outputs: every element once, in order, equal to the final array's items", async () => {
    const Tags = z.object({ tags: z.array(z.object({ label: z.string().max(5), weight: z.number().int().nullable() })).max(4), done: z.boolean() });
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 5, eosProbability: 0.2 }), maxTokens: 120 });
    let seen = 0;
    for (let i = 0; i < 30; i++) {
      const stream = ex.stream(Tags, "tags: red 3, blue 4", { elements: "tags" });
      const elements: StreamElement<{ label: string; weight: number | null }>[] = [];
      for await (const e of stream) if (e.type === "element") elements.push(e.element);
      const result = await stream.result;
      const items = (result.partial as { tags?: unknown[] } | undefined)?.tags ?? [];
      expect(elements.map((e) => e.index)).toEqual(items.map((_, k) => k));
      expect(elements.map((e) => e.partial)).toEqual(items);
      seen += elements.length;
    }
    expect(seen).toBeGreaterThan(5);
  });

  it("refuses an `elements` option that names no top-level array, and elementStream without an array", async () => {
    const ex = await scripted(ORDER_OUTPUT);
    // @ts-expect-error "product" is not an array property
    await expect(collect(ex.stream(Order, ORDER_TEXT, { elements: "product" }))).rejects.toMatchObject({ code: "OPTION_INVALID", message: /elements/ });
    await expect(collect(ex.stream(Order, ORDER_TEXT).elementStream)).rejects.toMatchObject({ code: "OPTION_INVALID", message: /elementStream/ });
  });
});

describe("stream(): the AI SDK-shaped views", () => {
  it("partialObjectStream, then the result; the stream itself carries partials, elements and the result", async () => {
    const ex = await scripted(PEOPLE_OUTPUT);
    const stream = ex.stream(People, PEOPLE_TEXT, { elements: "people" });
    const partials = await collect(stream.partialObjectStream);
    expect(partials.at(-1)).toEqual({ ...JSON.parse(PEOPLE_OUTPUT), people: [...JSON.parse(PEOPLE_OUTPUT).people.slice(0, 2), { name: "Zed", age: 7 }] });
    const result = await stream.result;
    expect(result.ok).toBe(true);
    const types = (await collect(ex.stream(People, PEOPLE_TEXT, { elements: "people" }))).map((e) => e.type);
    expect(new Set(types)).toEqual(new Set(["partial", "element", "result"]));
    expect(types.at(-1)).toBe("result");
    expectTypeOf<StreamEvent<z.infer<typeof Order>>>().toEqualTypeOf<
      | { readonly type: "partial"; readonly partial: DeepPartial<z.infer<typeof Order>>; readonly raw: string; readonly attempt: number }
      | { readonly type: "result"; readonly result: ExtractResult<z.infer<typeof Order>> }
    >();
  });

  it("is read once, by one reader", async () => {
    const ex = await scripted(ORDER_OUTPUT);
    const stream = ex.stream(Order, ORDER_TEXT);
    await collect(stream.partialObjectStream);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/read once/);
    expect((await stream.result).ok).toBe(true);
  });

  it("decodes nothing until it is read", async () => {
    const engine = new LoggingEngine(new ScriptedEngine({ vocabulary: vocab, script: ORDER_OUTPUT }));
    const ex = await createExtractor({ engine });
    const stream = ex.stream(Order, ORDER_TEXT);
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.log).toEqual([]);
    expect((await stream.result).ok).toBe(true);
  });

  it("with retries, each attempt streams from the start and says which it is", async () => {
    const Even = z.object({ n: z.number().int().refine((n) => n % 2 === 0, "must be even") });
    const ex = await createExtractor({ engine: new RandomEngine({ vocabulary: vocab, seed: 3, eosProbability: 0.5 }), maxTokens: 24 });
    for (let i = 0; i < 10; i++) {
      const stream = ex.stream(Even, "the number 4", { retries: 3 });
      const attempts = (await collect(stream)).flatMap((e) => (e.type === "partial" ? [e.attempt] : []));
      const result = await stream.result;
      expect(attempts[0]).toBe(1);
      expect(Math.max(...attempts)).toBe(result.stats.attempts);
      attempts.forEach((a, k) => k > 0 && expect(a).toBeGreaterThanOrEqual(attempts[k - 1]!));
      if (result.stats.attempts > 1) return;
    }
    throw new Error("no run needed a retry: pick another seed");
  });
});

describe("cancellation frees the engine within one token", () => {
  /** A stream decoding a long output, one macrotask per forward pass so the reader keeps up. */
  async function longStream(): Promise<{ engine: LoggingEngine; ex: Extractor }> {
    const engine = new LoggingEngine(new ScriptedEngine({ vocabulary: vocab, script: `{"product":"${"锐思Book Pro 14 ".repeat(8)}","quantity":3,"price":null,"status":"paid"}` }), { yieldPerPass: true });
    return { engine, ex: await createExtractor({ engine, maxTokens: 400 }) };
  }

  it("break: at most the forward pass in flight finishes, the session is closed, the next request starts at once", async () => {
    const { engine, ex } = await longStream();
    const stream = ex.stream(Order, ORDER_TEXT);
    let events = 0;
    let atBreak = 0;
    for await (const e of stream) {
      if (e.type === "partial" && ++events === 3) {
        atBreak = engine.log.length;
        break;
      }
    }
    // `break` returned only once the decode loop had stopped and closed its session.
    expect(engine.count("pass", atBreak)).toBe(0);
    expect(engine.count("passDone", atBreak)).toBeLessThanOrEqual(1);
    expect(engine.count("sample", atBreak)).toBe(0);
    expect(engine.log.at(-1)).toEqual({ session: 1, call: "close", ids: undefined });
    await expect(stream.result).rejects.toMatchObject({ code: "ABORTED" });
    // The next request: its session is ready right after it asks, and only it decodes.
    const before = engine.log.length;
    const next = await ex.extract(Order, ORDER_TEXT);
    expect(next.ok).toBe(true);
    expect(engine.log.slice(before, before + 2).map((c) => `${c.session}:${c.call}`)).toEqual(["2:create", "2:ready"]);
    expect(engine.log.slice(before).every((c) => c.session === 2)).toBe(true);
    // The same document decoded in full takes many more passes than the stream got to.
    expect(engine.count("passDone", 0, 1) * 2).toBeLessThan(engine.count("passDone", before, 2));
  });

  it("return() on the iterator stops it the same way", async () => {
    const { engine, ex } = await longStream();
    const iterator = ex.stream(Order, ORDER_TEXT)[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    const atReturn = engine.log.length;
    expect(await iterator.return!()).toEqual({ value: undefined, done: true });
    expectStoppedWithinOneToken(engine, atReturn);
  });

  it("an aborted signal ends the stream with ABORTED within one token", async () => {
    const { engine, ex } = await longStream();
    const controller = new AbortController();
    let atAbort = 0;
    const reading = (async () => {
      let n = 0;
      for await (const e of ex.stream(Order, ORDER_TEXT, { signal: controller.signal })) {
        if (e.type === "partial" && ++n === 2) {
          atAbort = engine.log.length;
          controller.abort();
        }
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: "ABORTED" });
    expectStoppedWithinOneToken(engine, atAbort);
  });

  it("extract() with a signal aborted mid-decode rejects with ABORTED within one token", async () => {
    const { engine, ex } = await longStream();
    const controller = new AbortController();
    const waiting = ex.extract(Order, ORDER_TEXT, { signal: controller.signal });
    while (engine.count("sample") < 5) await new Promise((resolve) => setImmediate(resolve));
    const atAbort = engine.log.length;
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: "ABORTED" });
    expectStoppedWithinOneToken(engine, atAbort);
  });

  it("leaving an extractMany loop early aborts the documents in flight before the loop is left", async () => {
    const { engine, ex } = await longStream();
    let atBreak = 0;
    const texts = ["first doc " + ORDER_TEXT, "second doc " + ORDER_TEXT, "third doc " + ORDER_TEXT];
    // The first result is the short one: a small maxTokens budget cuts it at once.
    for await (const r of ex.extractMany(Order, texts, { concurrency: 2, maxTokens: 40 })) {
      expect(r.result ?? r.error).toBeDefined();
      atBreak = engine.log.length;
      break;
    }
    expect(engine.count("pass", atBreak)).toBe(0);
    expect(engine.count("passDone", atBreak)).toBeLessThanOrEqual(1);
    const sessions = new Set(engine.log.map((c) => c.session));
    for (const s of sessions) expect(engine.count("close", 0, s)).toBe(1);
  });
});
