#!/usr/bin/env node
/**
 * The `pocket-extract` bin: runs the command line against the real process (streams, signals)
 * and exits with its code. Everything else lives in main.ts so tests can call it in-process.
 */
import { processIo } from "./io.js";
import { runCli } from "./main.js";

runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
