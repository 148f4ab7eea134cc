import { validate } from "../../src/verify/validate.js";
import { z } from "zod";
const S = z.object({ a: z.string().email(), n: z.number().int().refine((x) => x % 2 === 0, "even"), list: z.array(z.object({ b: z.string() })) });
const js = z.toJSONSchema(S) as any;
console.log(JSON.stringify(js));
console.log(JSON.stringify(validate({ a: "x", n: 3, list: [{}] }, js, S)));
console.log(JSON.stringify(validate({ a: "x@y.com", n: 3, list: [{b:"q"}] }, js, S)));
console.log(JSON.stringify(validate({ a: "x@y.com", n: 4, list: [{b:"q"}] }, js, S)));
console.log(JSON.stringify(validate({ a: 1 }, { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } } })));
