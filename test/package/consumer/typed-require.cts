// TypeScript consumer (CommonJS resolution, dist/index.d.cts): the same inference through require.
import pocket = require("pocket-extract");
import zod = require("zod");
import grammar = require("pocket-extract/grammar");

const Person = zod.z.object({ name: zod.z.string(), age: zod.z.number() });

export async function name(model: string): Promise<string | undefined> {
  const result = await pocket.extract(Person, "Alice, 31", { model });
  // @ts-expect-error `nickname` is not a field of Person
  void result.data?.nickname;
  return result.data?.name;
}

// The grammar tier through require: the compiled grammar's GBNF text is a string.
export function gbnfOf(vocabulary: grammar.Vocabulary): string {
  const text: string = grammar.printGbnf(grammar.compileGrammar(Person, vocabulary).grammar);
  // @ts-expect-error compileGrammar lives in pocket-extract/grammar, not the application tier
  pocket.compileGrammar(Person, vocabulary);
  return text;
}
