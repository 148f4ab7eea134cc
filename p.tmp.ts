import fc from "fast-check";
import { arbitrary } from "./src/testing/index.js";
import { Tree, Order } from "./test/testing/schemas.js";
let t = performance.now();
console.log(fc.sample(arbitrary(Tree), {numRuns: 5, seed: 1}).map(v => JSON.stringify(v)).join("\n"), performance.now()-t);
t = performance.now();
console.log(fc.sample(arbitrary(Order, {parsed: true}), {numRuns: 5, seed: 1}).map(v => JSON.stringify(v)).join("\n"), performance.now()-t);
