/**
 * A generated long zh/en document (payments by people, with names, dates and amounts spread through
 * filler paragraphs) and a deterministic "model" for it: a ScriptedEngine whose output, per prompt,
 * lists exactly the payments written whole in the chunk it was shown. Random-weight models cannot
 * extract; this one can, so the chunker, the merge and the span translation are what is measured.
 * Used by test/extract/long-document.test.ts and `npm run bench:long-document`.
 */
import { z } from "zod";
import { ScriptedEngine } from "../../src/engines/index.js";
import type { Vocabulary } from "../../src/tokens/index.js";

export const PaymentsSchema = z.object({
  payments: z.array(
    z.object({
      id: z.string().describe("payment reference, e.g. P0001"),
      name: z.string().describe("who paid"),
      date: z.string().describe("ISO date"),
      amount: z.number().describe("amount paid"),
    }),
  ),
});

export interface Payment {
  readonly id: string;
  readonly name: string;
  readonly date: string;
  readonly amount: number;
  /** Offsets of the id and the name in the document. */
  readonly idAt: number;
  readonly nameAt: number;
}

const EN_FIRST = ["Alice", "Brian", "Clara", "David", "Emily", "Frank", "Grace", "Henry", "Irene", "James", "Karen", "Louis"];
const EN_LAST = ["Walker", "Turner", "Morgan", "Hughes", "Foster", "Bennett", "Coleman", "Harper", "Porter", "Reid", "Spencer", "Wells"];
const ZH_FAMILY = ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "周", "吴", "徐", "孙"];
const ZH_GIVEN = ["伟", "芳", "娜", "敏", "静", "强", "磊", "洋", "艳", "勇", "军", "杰"];
const EN_FILLER = [
  "The committee reviewed the quarterly report and discussed the schedule for the coming months.",
  "Several members asked for clearer guidance on travel expenses, which the secretary promised to circulate.",
  "Weather delayed the delivery of office furniture, so the meeting room stayed half empty for a week.",
  "A short presentation covered the new filing system; questions were collected at the end.",
  "Everyone agreed that the archive needs a better index before the next audit begins.",
];
const ZH_FILLER = [
  "会议讨论了下一阶段的工作安排和预算情况。",
  "与会人员对差旅报销流程提出了改进意见，秘书处表示将尽快整理。",
  "由于天气原因，办公家具的交付推迟了一周！",
  "新的归档系统已经上线，大家普遍认为使用更加方便；",
  "下次审计开始之前，档案索引还需要进一步完善。",
];

/** A document of about `length` characters, alternating English and Chinese paragraphs, with a
 *  payment every few sentences; returns the text and the payments in document order. */
export function longDocument(length: number): { text: string; payments: Payment[] } {
  let text = "";
  const payments: Payment[] = [];
  let sentence = 0;
  for (let paragraph = 0; text.length < length; paragraph++) {
    const zh = paragraph % 2 === 1;
    for (let s = 0; s < 6 && text.length < length; s++, sentence++) {
      if (sentence % 5 === 2) {
        const n = payments.length;
        const id = `P${String(n + 1).padStart(4, "0")}`;
        const day = new Date(Date.UTC(2020, 0, 1 + n * 3));
        const date = day.toISOString().slice(0, 10);
        const amount = 1000 + n * 37;
        const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
        const name = zh ? ZH_FAMILY[n % 12]! + ZH_GIVEN[Math.floor(n / 12) % 12]! + ZH_GIVEN[(n + 5) % 12]! : `${EN_FIRST[n % 12]} ${EN_LAST[Math.floor(n / 12) % 12]}`;
        const [before, middle, after] = zh
          ? [`${y}年${m}月${d}日，`, "（编号", `）支付了${amount.toLocaleString("en-US")}元。`]
          : [`On ${date}, `, " (ref ", `) paid $${amount.toLocaleString("en-US")} for the order. `];
        const nameAt = text.length + before.length;
        const idAt = nameAt + name.length + middle.length;
        text += before + name + middle + id + after;
        payments.push({ id, name, date, amount, idAt, nameAt });
      } else {
        text += zh ? ZH_FILLER[sentence % 5] : EN_FILLER[sentence % 5] + " ";
      }
    }
    text = text.trimEnd() + "\n\n";
  }
  return { text, payments };
}

const EN_PAYMENT = /On (\d{4}-\d{2}-\d{2}), ([A-Z][a-z]+ [A-Z][a-z]+) \(ref (P\d{4})\) paid \$([\d,]+) for the order\./g;
const ZH_PAYMENT = /(\d{4})年(\d{1,2})月(\d{1,2})日，(\p{Script=Han}{3})（编号(P\d{4})）支付了([\d,]+)元。/gu;

/** The payments written whole in `text` (a prompt holding one chunk), in the order they appear. */
export function readPayments(text: string): { id: string; name: string; date: string; amount: number }[] {
  const found: { at: number; id: string; name: string; date: string; amount: number }[] = [];
  for (const m of text.matchAll(EN_PAYMENT)) found.push({ at: m.index, id: m[3]!, name: m[2]!, date: m[1]!, amount: toNumber(m[4]!) });
  for (const m of text.matchAll(ZH_PAYMENT)) {
    const date = `${m[1]}-${m[2]!.padStart(2, "0")}-${m[3]!.padStart(2, "0")}`;
    found.push({ at: m.index, id: m[5]!, name: m[4]!, date, amount: toNumber(m[6]!) });
  }
  return found.sort((a, b) => a.at - b.at).map(({ id, name, date, amount }) => ({ id, name, date, amount }));
}

/** A model that answers every prompt with the payments of the chunk in it. */
export function paymentsEngine(vocabulary: Vocabulary, contextLength?: number): ScriptedEngine {
  return new ScriptedEngine({
    vocabulary,
    canonical: true,
    contextLength,
    script: (prompt) => JSON.stringify({ payments: readPayments(prompt) }),
  });
}

function toNumber(digits: string): number {
  return Number(digits.replace(/,/g, ""));
}
