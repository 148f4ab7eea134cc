/**
 * The README's streaming example (API, `extractor.stream`), typechecked and run: the UI loop and
 * the AI SDK-style loop, on the ScriptedEngine (imports point at the sources instead of
 * "pocket-extract"). Keep the two in step.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createExtractor, type DeepPartial, type ExtractResult, type Extractor, type StreamElement } from "../../src/index.js";
import { ScriptedEngine } from "../../src/engines/testing/scripted-engine.js";
import { fixtureVocabulary } from "../support/fixture-vocab.js";

// ---- the README's example -------------------------------------------------------------------

const Contacts = z.object({
  people: z.array(z.object({ name: z.string(), email: z.string().nullable(), role: z.enum(["buyer", "seller"]) })),
  summary: z.string(),
});

async function show(extractor: Extractor, text: string, view: ContactsView): Promise<void> {
  const stream = extractor.stream(Contacts, text, { elements: "people", signal: view.closing });
  for await (const event of stream) {
    if (event.type === "partial") view.render(event.partial); // DeepPartial<Contacts>, only when it changed
    else if (event.type === "element") view.addRow(event.element); // each person once, complete, with its field reports
    else view.done(event.result); // the ExtractResult extract() gives
    if (view.hidden) break; // stops decoding before the next token; the engine is free when the loop is left
  }
}

async function aiSdkWay(extractor: Extractor, text: string, view: ContactsView): Promise<ExtractResult<Contacts>> {
  const stream = extractor.stream(Contacts, text);
  for await (const partial of stream.partialObjectStream) view.render(partial);
  const result = await stream.result;
  return result;
}

// ---- what the example assumes ---------------------------------------------------------------

type Contacts = z.infer<typeof Contacts>;
interface ContactsView {
  readonly closing: AbortSignal;
  readonly hidden: boolean;
  render(partial: DeepPartial<Contacts>): void;
  addRow(person: StreamElement<Contacts["people"][number]>): void;
  done(result: ExtractResult<Contacts>): void;
}

/** A view that records what it was shown, and hides itself after `hideAfter` renders. */
function recordingView(hideAfter = Infinity) {
  const rendered: DeepPartial<Contacts>[] = [];
  const rows: StreamElement<Contacts["people"][number]>[] = [];
  const results: ExtractResult<Contacts>[] = [];
  return {
    rendered,
    rows,
    results,
    closing: new AbortController().signal,
    get hidden() {
      return rendered.length >= hideAfter;
    },
    render: (p: DeepPartial<Contacts>) => void rendered.push(p),
    addRow: (r: StreamElement<Contacts["people"][number]>) => void rows.push(r),
    done: (r: ExtractResult<Contacts>) => void results.push(r),
  };
}

const TEXT = "From: Emily Chen <emily@rs.example> (seller) to Bob (buyer): the quote for 3 laptops.";
const OUTPUT = '{"people":[{"name":"Emily Chen","email":"emily@rs.example","role":"seller"},{"name":"Bob","email":null,"role":"buyer"}],"summary":"the quote for 3 laptops"}';

let extractor: Extractor;
beforeAll(async () => {
  extractor = await createExtractor({ engine: new ScriptedEngine({ vocabulary: await fixtureVocabulary(), script: OUTPUT }) });
});

describe("README: streaming in a UI loop", () => {
  it("renders growing partials, adds each person once with reports, then the result", async () => {
    const view = recordingView();
    await show(extractor, TEXT, view);
    expect(view.rows.map((r) => [r.index, r.ok, r.data?.name])).toEqual([
      [0, true, "Emily Chen"],
      [1, true, "Bob"],
    ]);
    expect(view.rows[0]!.fields.every((f) => f.status === "found")).toBe(true);
    expect(view.results).toHaveLength(1);
    expect(view.rendered.at(-1)).toEqual(view.results[0]!.data);
  });

  it("a hidden view breaks out of the loop: no result, the engine is free", async () => {
    const view = recordingView(3);
    await show(extractor, TEXT, view);
    expect(view.rendered).toHaveLength(3);
    expect(view.results).toHaveLength(0);
    expect((await extractor.extract(Contacts, TEXT)).ok).toBe(true);
  });

  it("the AI SDK way: partials, then the result", async () => {
    const view = recordingView();
    const result = await aiSdkWay(extractor, TEXT, view);
    expect(result.ok).toBe(true);
    expect(view.rendered.length).toBeGreaterThan(5);
  });
});
