/**
 * Puts an object's keys in the order its JSON Schema declares them. The extraction grammar writes
 * declared properties in schema order, so a hand-written fixture (`fakeExtractor` results) is
 * reordered before it is checked against the grammar: key order is not what a fixture means.
 * Follows `properties`, `items`/`prefixItems` and local `$ref`s; leaves values under unions as
 * they are (which branch applies is the grammar's call).
 */
import { resolveSchema } from "../ground/index.js";
import type { JsonSchema } from "../schema/index.js";
import { isRecord as isSchemaObject } from "../util/index.js";

export function inSchemaOrder(value: unknown, schema: unknown, root: JsonSchema): unknown {
  const s = resolveSchema(root, schema);
  if (!s) return value;
  if (Array.isArray(value)) {
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    return value.map((v, i) => inSchemaOrder(v, i < prefix.length ? prefix[i] : s.items, root));
  }
  if (!isSchemaObject(value)) return value;
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const keys = [...Object.keys(props).filter((k) => k in value), ...Object.keys(value).filter((k) => !(k in props))];
  return Object.fromEntries(keys.map((k) => [k, inSchemaOrder(value[k], k in props ? props[k] : s.additionalProperties, root)]));
}
