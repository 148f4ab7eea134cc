/**
 * Turns a DFA over raw UTF-8 text (a string's decoded content) into a DFA over the bytes of the
 * complete JSON string token: opening quote, content in canonical JSON form (as JSON.stringify and
 * Python json.dumps write it: `\"`, `\\`, \b \f \n \r \t, other control characters as \u00XX with
 * lowercase hex, everything else raw), closing quote. Canonical escapes are a prefix-free code, so
 * each content state gets a small deterministic trie of escape sequences. Not for non-canonical
 * input such as `\/` or `\u0041`.
 */
import { DfaBuilder, refine, type Budget, type ByteDfa } from "../fsa/index.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SHORT: Readonly<Record<number, string>> = { 0x08: "b", 0x09: "t", 0x0a: "n", 0x0c: "f", 0x0d: "r", 0x22: '"', 0x5c: "\\" };

export const escaped = (b: number): boolean => b < 0x20 || b === QUOTE || b === BACKSLASH;

/** Each escaped raw byte with the bytes of its escape sequence, backslash included. */
export const ESCAPES: readonly (readonly [number, readonly number[]])[] = Array.from({ length: 256 }, (_, x) => x)
  .filter(escaped)
  .map((x) => {
    const tail = SHORT[x] ?? `u${x.toString(16).padStart(4, "0")}`;
    return [x, [BACKSLASH, ...Array.from(tail, (ch) => ch.charCodeAt(0))]] as const;
  });

/** Bytes that appear inside escape sequences each need their own class. */
export const ESCAPE_ALPHABET = new Set(ESCAPES.flatMap(([, path]) => path));

/** Byte labels apart from the content's classes: control characters (1), each byte of the escape
 *  alphabet on its own (itself: all are printable ASCII), and the rest (0). */
const ESCAPE_ROLES = Uint8Array.from({ length: 256 }, (_, b) => (b < 0x20 ? 1 : ESCAPE_ALPHABET.has(b) ? b : 0));

export function encodeJsonString(content: ByteDfa, budget: Budget, what: string): ByteDfa {
  const part = refine(content.classOf, ESCAPE_ROLES);
  const rep = new Int32Array(part.numClasses);
  for (let x = 255; x >= 0; x--) rep[part.classOf[x]!] = x;
  const out = new DfaBuilder(part.classOf, part.numClasses, budget, what);
  const n = content.numStates;
  for (let s = 0; s < n; s++) out.addState();
  const open = out.addState();
  const close = out.addState(true);
  out.set(open, part.classOf[QUOTE]!, content.start);
  const step = (s: number, b: number): number => content.trans[s * content.numClasses + content.classOf[b]!]!;
  const paths = ESCAPES.map(([x, path]) => [x, path.map((b) => part.classOf[b])] as const);
  const backslash = part.classOf[BACKSLASH]!;
  // States whose escaped characters lead to the same places share one escape trie (most states
  // of a product with "any text" do): fewer states built here and fewer for finish() to merge.
  const escapeTries = new Map<string, number>();
  const targets = new Int32Array(paths.length);
  for (let s = 0; s < n; s++) {
    for (let c = 0; c < part.numClasses; c++) {
      const b = rep[c]!;
      if (escaped(b)) continue;
      const t = step(s, b);
      if (t >= 0) out.set(s, c, t);
    }
    if (content.accepting[s]) out.set(s, part.classOf[QUOTE]!, close);
    let any = false;
    for (let i = 0; i < paths.length; i++) any = (targets[i] = step(s, paths[i]![0])) >= 0 || any;
    if (!any) continue;
    const key = targets.join(",");
    let trie = escapeTries.get(key);
    if (trie === undefined) {
      trie = out.addState();
      escapeTries.set(key, trie);
      paths.forEach(([, path], i) => {
        if (targets[i]! < 0) return;
        let node = trie!;
        for (let k = 1; k < path.length - 1; k++) {
          let next = out.get(node, path[k]!);
          if (next < 0) {
            next = out.addState();
            out.set(node, path[k]!, next);
          }
          node = next;
        }
        out.set(node, path[path.length - 1]!, targets[i]!);
      });
    }
    out.set(s, backslash, trie);
  }
  return out.build(open);
}
