/**
 * Where a Zod 4 schema cannot become JSON Schema, and what to write instead. Zod's own error
 * ("Date cannot be represented in JSON Schema") names neither the field nor a fix; this converts
 * again with `unrepresentable: "any"` and an `override` hook that sees every node with its JSON
 * Schema path, and turns each unrepresentable node into "z.date() at order.deliveryDate: use
 * z.iso.date() ...".
 */
import { toJSONSchema, type $ZodType } from "zod/v4/core";

export interface Unrepresentable {
  /** The Zod construct, as written (e.g. "z.date()"). */
  readonly construct: string;
  /** The field path, e.g. "order.deliveryDate", "tags[]", or "the root". */
  readonly field: string;
  /** JSON pointer of the place in the generated JSON Schema. */
  readonly pointer: string;
  readonly fix: string;
}

const FIXES: Readonly<Record<string, { readonly construct: string; readonly fix: string }>> = {
  date: { construct: "z.date()", fix: "use z.iso.date() (a YYYY-MM-DD string) or z.iso.datetime(), and make a Date from result.data if you need one" },
  transform: { construct: ".transform()", fix: "extract the input type and apply the transform to result.data, or end the pipe with a schema JSON can express (.pipe(z.number()))" },
  bigint: { construct: "z.bigint()", fix: "use z.number().int() (or z.string().regex(/^-?\\d+$/) for values beyond 2^53) and convert after extraction" },
  symbol: { construct: "z.symbol()", fix: "remove it: text has no symbols; use z.string() or z.enum([...])" },
  function: { construct: "z.function()", fix: "remove it from the extraction schema: a function cannot be extracted from text" },
  map: { construct: "z.map()", fix: "use z.record(z.string(), value) (a JSON object) or z.array(z.object({ key, value }))" },
  set: { construct: "z.set()", fix: "use z.array(item) (add .refine for uniqueness if it matters)" },
  undefined: { construct: "z.undefined()", fix: "make the field .optional() or use z.null()" },
  void: { construct: "z.void()", fix: "make the field .optional() or use z.null()" },
  nan: { construct: "z.nan()", fix: "use z.number() or z.null()" },
  custom: { construct: "z.custom() / z.instanceof()", fix: "describe the value with JSON types (z.string(), z.object({...}))" },
};

/** Every unrepresentable node of a Zod 4 schema, in the order Zod visits them. */
export function findUnrepresentable(schema: $ZodType): Unrepresentable[] {
  const found: Unrepresentable[] = [];
  toJSONSchema(schema, {
    target: "draft-2020-12",
    unrepresentable: "any",
    cycles: "ref",
    reused: "inline",
    override: (ctx) => {
      const known = FIXES[ctx.zodSchema._zod.def.type];
      if (known) found.push({ ...known, field: fieldPath(ctx.path), pointer: ctx.path.map((k) => `/${String(k).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("") });
    },
  });
  return found;
}

/** A JSON Schema path (properties/order/properties/deliveryDate) as a field path (order.deliveryDate). */
function fieldPath(path: readonly (string | number)[]): string {
  let out = "";
  for (let i = 0; i < path.length; i++) {
    const k = path[i];
    if (k === "properties") out += out ? `.${String(path[++i])}` : String(path[++i]);
    else if (k === "items") out += "[]";
    else if (k === "prefixItems") out += `[${String(path[++i])}]`;
    else if (k === "additionalProperties") out += ".*";
    else if (k === "$defs" || k === "definitions") out = String(path[++i]);
    else if (k === "anyOf" || k === "oneOf" || k === "allOf") i++;
  }
  return out || "the root";
}
