import { compileSchema } from "./src/schema/index.js";
import { printGbnf } from "./src/grammar/index.js";
import { matches } from "./test/schema/support/matcher.js";
const s = { type: "object", properties: { a: { type: "string", maxLength: 3 }, b: { type: "integer", minimum: -5, maximum: 120 }, c: {enum: ["x", 1, null, {"q":[1]}]} }, required: ["b"] };
for (const mode of ["extraction", "jsonschema"] as const) for (const format of ["compact","flexible"] as const) {
const c = compileSchema(s, { mode, format });
if (format==="compact") console.log(printGbnf(c.grammar));
for (const t of [{b:3}, {a:"xy", b:120}, {a:"xyzw", b:1}, {b:121}, {b:-5, c:{q:[1]}}, {a:null,b:1}, {b:1, z:2}]) console.log(mode, format, JSON.stringify(t), matches(c.grammar, JSON.stringify(t)), format==="flexible" ? matches(c.grammar, JSON.stringify(t,null,2)) : "");
}
console.log(JSON.stringify(compileSchema(s).report));
