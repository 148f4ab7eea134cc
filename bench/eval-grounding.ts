/**
 * `npm run eval:grounding`: precision and recall of the `fabricated` flag on the grounding
 * evaluation set (fixtures/grounding), a confusion table of statuses, and every miss. Prints
 * only; the targets (>= 0.99 both) are asserted by test/ground/eval-grounding.test.ts.
 */
import { evaluateGrounding } from "../fixtures/grounding/evaluate.js";

const e = evaluateGrounding();
const pct = (x: number): string => x.toFixed(3);
const statuses = ["found", "missing", "fabricated", "inferred", "invalid"] as const;

console.log(`grounding evaluation: ${e.cases} texts, ${e.truePositive + e.falseNegative} perturbed values, ${e.trueNegative + e.falsePositive} gold values (${e.millis.toFixed(1)} ms)`);
console.log(`fabricated flag: precision ${pct(e.precision)}  recall ${pct(e.recall)}  (target >= 0.99 both)`);
console.log(`  TP ${e.truePositive}  FP ${e.falsePositive}  FN ${e.falseNegative}  TN ${e.trueNegative}`);
console.log("");
console.log(`${"value \\ status".padEnd(16)}${statuses.map((s) => s.padStart(12)).join("")}`);
for (const row of ["gold", "perturbed"] as const) {
  console.log(`${row.padEnd(16)}${statuses.map((s) => String(e.confusion[row][s]).padStart(12)).join("")}`);
}
if (e.misses.length > 0) {
  console.log("\nmisses:");
  for (const m of e.misses) {
    console.log(`  ${m.id} ${m.field}: ${JSON.stringify(m.value)} -> ${m.status}${m.span ? ` (span "${m.span}")` : ""}, expected ${m.expected}`);
  }
}
