/**
 * `runCli(argv, io)`: the whole command line as a function returning the exit code, used by the
 * bin (src/cli/index.ts) and by tests with an injected engine. A usage error, a typed SDK error
 * that ends the run (schema, model, files: one line with the code, the path and what to do) or an
 * unexpected one (with its stack: a bug to report) -> exit 2 with a message; the
 * per-document outcomes decide between 0 and 1 (see run.ts).
 */
import { PocketExtractError } from "../errors.js";
import { VERSION } from "../version.js";
import { HELP, parseCliArgs } from "./args.js";
import { UsageError } from "./usage-error.js";
import { fileErrorOf } from "./files.js";
import { inspectCommand } from "./inspect.js";
import type { CliIo } from "./io.js";
import { runCommand } from "./run.js";
import { servingCommand } from "./serving.js";
import { SERVING_HELP, isServingCommand, parseServingArgs } from "./serving-args.js";

const EXIT_USAGE = 2;

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    if (isServingCommand(argv[0]) && !argv.includes("--help") && !argv.includes("-h")) return await servingCommand(parseServingArgs(argv, io.engine !== undefined), io);
    const args = parseCliArgs(argv, io.engine !== undefined);
    switch (args.command) {
      case "help":
        io.stdout.write(`${HELP}\n${SERVING_HELP}`);
        return 0;
      case "version":
        io.stdout.write(`${VERSION}\n`);
        return 0;
      case "inspect":
        return await inspectCommand(args, io);
      case "run":
        return await runCommand(args, io);
    }
  } catch (thrown) {
    // An operating-system file error no step typed itself still gets a typed line, not a stack.
    const err = fileErrorOf(thrown, "a file") ?? thrown;
    if (err instanceof UsageError) {
      io.stderr.write(`pocket-extract: ${err.message}\n(pocket-extract --help lists the options)\n`);
    } else if (err instanceof PocketExtractError) {
      io.stderr.write(`pocket-extract: ${err.code}: ${err.message}\n`);
    } else {
      io.stderr.write(`pocket-extract: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    return EXIT_USAGE;
  }
}
