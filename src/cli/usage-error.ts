/**
 * The one error a command line parser throws: every argument module (run, grounding, serving,
 * queue) raises it, and main.ts turns it into the help hint and exit code 2. Its own file so the
 * argument modules import it without importing each other.
 */

/** A command line the CLI cannot run; reported with the help hint and exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
