import { groundFields, prepareText } from "../../src/verify/index.js";
const parts = ["客户张伟于2026年3月15日购买了三台笔记本电脑，单价¥1,299.00，电话138-1234-5678。", "Order A-10293 by Emily Carter on March 15, 2026: 3 x MX Master 3S at $99.99. "];
let big = "";
for (let i = 0; big.length < 4000; i++) big += parts[i % 2] + `第${i}段。`;
big = big.slice(0, 4000);
const v: Record<string, unknown> = {};
for (let i = 0; i < 10; i++) {
  v[`found${i}`] = i % 2 ? "Emily Carter" : "2026-03-15";
  v[`fake${i}`] = i % 2 ? "北京星河文化传媒公司" : 1399 + i;
}
for (let i = 0; i < 200; i++) {
  const t0 = performance.now();
  const p = prepareText(big + i);
  const t1 = performance.now();
  groundFields(v, p);
  const t2 = performance.now();
  console.log((t1 - t0).toFixed(2), (t2 - t1).toFixed(2));
}
