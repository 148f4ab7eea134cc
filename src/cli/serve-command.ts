/**
 * `pocket-extract serve`: the HTTP service (src/serve) over a pool of --pool engines, until the
 * first SIGINT/SIGTERM; then it stops accepting, lets in-flight requests finish (up to
 * --shutdown-grace) and exits 0.
 */
import { createServer } from "../serve/index.js";
import type { CliIo } from "./io.js";
import type { ServeArgs } from "./serving-args.js";
import { disposePool, openPool, untilStopped } from "./serving-shared.js";

export async function serve(args: ServeArgs, io: CliIo): Promise<number> {
  const pool = await openPool(args, args.pool, io);
  const server = createServer({ pool, requestTimeoutMs: args.timeoutSeconds * 1000 });
  try {
    const { url } = await server.listen(args.port, args.host);
    io.stderr.write(`pocket-extract serve: listening on ${url} (${pool.size} engine${pool.size > 1 ? "s" : ""})\n`);
    await untilStopped(io, async (signal) => {
      io.stderr.write(`${signal}: no new requests; finishing in-flight ones (up to ${args.shutdownGraceSeconds} s)\n`);
      await server.close(args.shutdownGraceSeconds * 1000);
    });
    return 0;
  } finally {
    await disposePool(pool, io);
  }
}
