/**
 * A compact, human-readable description of a JSON Schema for the prompt: one line per field with
 * its name, type, constraints worth telling a small model (enum choices, date formats, bounds),
 * whether it is optional, and its `description` text (zod `.describe()`). Nested objects and
 * arrays of objects indent their fields. Deterministic: the same schema always gives the same
 * bytes, which keeps the prompt prefix reusable.
 */
import { isNullType, resolveSchema, unionBranches } from "../ground/index.js";
import { SchemaNode, type JsonSchema, type JsonSchemaObject, type JsonType } from "../schema/index.js";
import type { PromptLanguage } from "./language.js";

interface Words {
  readonly oneOf: string;
  readonly optional: string;
  readonly arrayOf: string;
  readonly objectWith: string;
  readonly or: string;
  readonly item: string;
}

const WORDS: Readonly<Record<PromptLanguage, Words>> = {
  en: { oneOf: "one of", optional: "optional", arrayOf: "array of", objectWith: "object", or: " or ", item: "each item" },
  zh: { oneOf: "取值之一", optional: "可选", arrayOf: "数组，元素为", objectWith: "对象", or: " 或 ", item: "每项" },
};

const FORMAT_HINTS: Readonly<Record<string, string>> = {
  date: "date YYYY-MM-DD",
  "date-time": "date-time ISO 8601",
  time: "time HH:MM:SS",
  email: "email",
  uri: "URL",
  url: "URL",
};

// zod emits the safe-integer range as bounds on every int; telling the model is noise.
const isMeaningfulBound = (x: unknown): x is number => typeof x === "number" && Math.abs(x) < Number.MAX_SAFE_INTEGER;
const MAX_DEPTH = 8;

interface Described {
  readonly type: string;
  readonly children: readonly string[];
}

/** Keyword values are read through the typed node; `peek`, so a malformed value reads as absent. */
const nodeOf = (s: JsonSchemaObject): SchemaNode => new SchemaNode(s, "");

/** `type` written as exactly this one name (the string form: `["object"]` does not count here, as it never has). */
const typeWrittenAs = (s: JsonSchemaObject, name: JsonType): boolean => s.type === name;

function describeNode(root: JsonSchema, raw: unknown, lang: PromptLanguage, indent: string, depth: number): Described {
  const w = WORDS[lang];
  const s = resolveSchema(root, raw);
  if (!s || depth > MAX_DEPTH) return { type: "any", children: [] };
  const n = nodeOf(s);
  const choices = n.peek("enum");
  if (choices) return { type: `${w.oneOf} ${choices.filter((e) => e !== null).map((e) => JSON.stringify(e)).join(", ")}`, children: [] };
  if (n.has("const")) return { type: JSON.stringify(n.peek("const")), children: [] };
  const branches = unionBranches(s);
  if (branches) {
    // null branches are the "absent" escape, covered by the general rule in the instruction.
    const parts = branches.map((b) => resolveSchema(root, b)).filter((b): b is JsonSchemaObject => b !== undefined && !typeWrittenAs(b, "null"));
    if (parts.length === 1) return describeNode(root, { ...s, anyOf: undefined, oneOf: undefined, ...parts[0] }, lang, indent, depth);
    return { type: parts.map((b) => describeNode(root, b, lang, indent, depth + 1).type).join(w.or), children: [] };
  }
  const types = [...(n.peek("type") ?? [])].filter((t) => t !== "null");
  const type = types.length === 1 ? String(types[0]) : types.length > 1 ? types.join(w.or) : n.peek("properties") ? "object" : "any";
  if (type === "object") {
    return { type: w.objectWith, children: describeFields(root, s, lang, indent + "  ", depth + 1) };
  }
  if (type === "array") {
    const item = describeNode(root, n.peek("items"), lang, indent, depth + 1);
    return { type: `${w.arrayOf} ${item.type}`, children: item.children };
  }
  const notes: string[] = [];
  const format = n.peek("format");
  if (type === "string" && format !== undefined) notes.push(FORMAT_HINTS[format] ?? format);
  const bound = (op: string, x: unknown): void => {
    if (isMeaningfulBound(x)) notes.push(`${op} ${x}`);
  };
  bound(">=", n.peek("minimum"));
  bound(">", n.peek("exclusiveMinimum"));
  bound("<=", n.peek("maximum"));
  bound("<", n.peek("exclusiveMaximum"));
  return { type: [type, ...notes].join(", "), children: [] };
}

function describeFields(root: JsonSchema, s: JsonSchemaObject, lang: PromptLanguage, indent: string, depth: number): string[] {
  const n = nodeOf(s);
  const required = new Set(n.peek("required") ?? []);
  const lines: string[] = [];
  for (const [name, raw] of n.peek("properties") ?? []) {
    const sub = resolveSchema(root, raw);
    const d = describeNode(root, raw, lang, indent, depth);
    const optional = required.has(name) ? "" : `, ${WORDS[lang].optional}`;
    const description = sub && nodeOf(sub).peek("description");
    const desc = typeof description === "string" && description.trim() ? `: ${description.trim()}` : "";
    lines.push(`${indent}- ${name} (${d.type}${optional})${desc}`, ...d.children);
  }
  return lines;
}

/** Describes the top-level value: its fields when it is an object, else its type. */
export function describeSchema(schema: JsonSchema, lang: PromptLanguage): string {
  const root = resolveSchema(schema, schema);
  if (root && (typeWrittenAs(root, "object") || nodeOf(root).peek("properties")) && !isNullType(root)) {
    return describeFields(schema, root, lang, "", 0).join("\n");
  }
  const d = describeNode(schema, schema, lang, "", 0);
  return [d.type, ...d.children].join("\n");
}
