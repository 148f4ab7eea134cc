import { ensureMnnToyModel } from "./fixtures/mnn/index.js";
const t0 = performance.now();
const dir = await ensureMnnToyModel();
console.log(dir, ((performance.now() - t0) / 1000).toFixed(1), "s");
