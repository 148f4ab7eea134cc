// The grammar-tier check both consumer scripts run, given pocket-extract/grammar as each module
// system resolved it: compile a JSON Schema for a byte-per-token vocabulary, walk a document
// through the matcher, print the grammar as GBNF and parse it back; one JSON line out.
module.exports = function grammarOnce(consumer, tier) {
  const eos = new TextEncoder().encode("</s>");
  const vocabulary = tier.vocabularyFromBytes({
    width: 257,
    bytes: (id) => (id < 256 ? Uint8Array.of(id) : eos),
    specialIds: [256],
    eosIds: [256],
  });
  const schema = { type: "object", properties: { name: { type: "string", maxLength: 8 } }, required: ["name"], additionalProperties: false };
  const compiled = tier.compileGrammar(schema, vocabulary, { cache: false });
  const matcher = compiled.tokens.matcher();
  const accepted = matcher.acceptBytes(new TextEncoder().encode('{"name":"Al"}'));
  const gbnf = tier.printGbnf(compiled.grammar);
  const reparsed = tier.printGbnf(tier.parseGbnf(gbnf));
  console.log(JSON.stringify({ consumer, accepted, complete: matcher.isComplete(), gbnfLines: gbnf.split("\n").length, roundTrip: reparsed === gbnf }));
};
