// TypeScript consumer (CommonJS resolution, dist/index.d.cts): the same inference through require.
import pocket = require("pocket-extract");
import zod = require("zod");

const Person = zod.z.object({ name: zod.z.string(), age: zod.z.number() });

export async function name(model: string): Promise<string | undefined> {
  const result = await pocket.extract(Person, "Alice, 31", { model });
  // @ts-expect-error `nickname` is not a field of Person
  void result.data?.nickname;
  return result.data?.name;
}
