/**
 * What one more verified draft row costs a GGUF model, in forward passes of one token, read from
 * its tensor shapes: a row's own work runs over the vocabulary (its output-layer product, then its
 * masked sampling and grammar mask), a pass's over the weights every token goes through. So the
 * figure is the output matrix's share of the matrices a token is multiplied by: about 1 for a tiny
 * model with a large vocabulary, about 0.2 for a 0.3B model with a 64k vocabulary. A model, not a
 * measurement: it leaves out the drafted token's pass through the blocks (nearly free where a pass
 * is bound by reading the weights; on one CPU thread the pocket-shaped Q8_0 GGUF measured +0.20 of
 * a pass for the row, as its shape says, and +0.5 for the token) and a pass's fixed cost (the tiny
 * GGUF's row measured +0.17 of a pass in llama.cpp alone; in the decode loop, with the rows' masks,
 * a two-row verification took about two plain steps).
 */
/** A tensor's name and ggml dims (dims[0] is the row length), as GGUF headers and fixture writers give them. */
export interface TensorShape {
  readonly name: string;
  readonly dims: readonly number[];
}

/**
 * The output matrix's share (output.weight, or token_embd.weight when tied) of the matrices a
 * token is multiplied by (the blocks' `blk.*` matrices and the output); undefined without an
 * output matrix or blocks.
 */
export function verifyRowCost(tensors: Iterable<TensorShape>): number | undefined {
  let output: number | undefined;
  let embedding: number | undefined;
  let blocks = 0;
  for (const { name, dims } of tensors) {
    if (dims.length !== 2) continue;
    const size = dims[0]! * dims[1]!;
    if (name === "output.weight") output = size;
    else if (name === "token_embd.weight") embedding = size;
    else if (name.startsWith("blk.")) blocks += size;
  }
  const row = output ?? embedding;
  return row === undefined || blocks === 0 ? undefined : row / (row + blocks);
}
