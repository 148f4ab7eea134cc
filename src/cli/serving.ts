/**
 * Dispatch of the serving commands. Their libraries (fastify and prom-client for `serve`; bullmq
 * and ioredis for the queue commands) are optional peer dependencies, loaded only when a serving
 * command runs, so `run` and `inspect` work without them; a missing one is a usage error that
 * says what to install.
 */
import { UsageError } from "./usage-error.js";
import type { CliIo } from "./io.js";
import type { ServingArgs } from "./serving-args.js";

const NEEDS = { serve: "fastify prom-client", queue: "bullmq ioredis" } as const;

export async function servingCommand(args: ServingArgs, io: CliIo): Promise<number> {
  if (args.command === "serve") {
    const { serve } = await load(() => import("./serve-command.js"), args.command, NEEDS.serve);
    return serve(args, io);
  }
  const commands = await load(() => import("./queue-commands.js"), args.command, NEEDS.queue);
  switch (args.command) {
    case "worker":
      return commands.worker(args, io);
    case "enqueue":
      return commands.enqueue(args, io);
    case "collect":
      return commands.collect(args, io);
  }
}

async function load<T>(importer: () => Promise<T>, command: string, packages: string): Promise<T> {
  try {
    return await importer();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new UsageError(`pocket-extract ${command} needs the optional packages ${packages} (${(err as Error).message}): npm install ${packages}`);
    }
    throw err;
  }
}
