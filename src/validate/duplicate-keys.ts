/**
 * Repeated keys in the model's raw JSON. The grammar writes each declared property at most once,
 * but keys of `additionalProperties`, `patternProperties` and records come from an open set the
 * automaton cannot remember (a set of keys written so far is not a finite state). `JSON.parse`
 * keeps the last of repeated keys and drops the others silently, so they are found here, on the
 * raw text, and every occurrence becomes an issue at its key's path: the result is not ok.
 * One pass over the text with an explicit stack (no recursion on the output's depth).
 */
import { toPointer } from "../util/index.js";
import type { Issue } from "./types.js";

type Frame =
  | { readonly kind: "object"; readonly path: (string | number)[]; readonly counts: Map<string, number>; key: string | undefined; expectKey: boolean }
  | { readonly kind: "array"; readonly path: (string | number)[]; index: number };

/** One issue per occurrence of every key repeated within one object of `raw` (valid JSON). */
export function duplicateKeyIssues(raw: string): Issue[] {
  const repeated: { path: (string | number)[]; key: string; count: number }[] = [];
  const stack: Frame[] = [];
  const childPath = (): (string | number)[] => {
    const top = stack[stack.length - 1];
    if (top === undefined) return [];
    return top.kind === "object" ? [...top.path, top.key ?? ""] : [...top.path, top.index];
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let end = i + 1;
      while (end < raw.length && raw[end] !== '"') end += raw[end] === "\\" ? 2 : 1;
      if (top?.kind === "object" && top.expectKey) {
        const key = JSON.parse(raw.slice(i, end + 1)) as string;
        top.key = key;
        top.expectKey = false;
        top.counts.set(key, (top.counts.get(key) ?? 0) + 1);
      }
      i = end;
    } else if (c === "{") {
      stack.push({ kind: "object", path: childPath(), counts: new Map(), key: undefined, expectKey: true });
    } else if (c === "[") {
      stack.push({ kind: "array", path: childPath(), index: 0 });
    } else if (c === "}" || c === "]") {
      const done = stack.pop();
      if (done?.kind === "object") for (const [key, count] of done.counts) if (count > 1) repeated.push({ path: done.path, key, count });
    } else if (c === "," && top !== undefined) {
      if (top.kind === "object") top.expectKey = true;
      else top.index++;
    }
  }
  return repeated.flatMap(({ path, key, count }) => {
    const at = [...path, key];
    return Array.from({ length: count }, (_, n) => ({
      path: at,
      pointer: toPointer(at),
      message: `duplicate key ${JSON.stringify(key)}: occurrence ${n + 1} of ${count} (JSON keeps only the last, so the others would be lost)`,
      source: "json" as const,
    }));
  });
}
