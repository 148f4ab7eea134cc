/**
 * The error of a command line the CLI cannot run (reported with the help hint, exit code 2). In
 * its own file so the option modules (grounding-args.ts, extraction-args.ts) and the parser that
 * splices them in (args.ts) all use it without importing each other in a cycle.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
