/**
 * The JSON Lines record format shared by the CLI, the queue workers and the HTTP service: the
 * input and output line shapes (one output record per input line, result or typed error) and the
 * byte-exact line reader and durable appender. It sits below all three so none of them imports
 * another to read or write a line.
 */
export {
  errorRecord,
  parseInputLine,
  parseRecord,
  recordOf,
  type ErrorRecord,
  type InputLine,
  type OutputRecord,
  type RecordErrorCode,
  type RecordKey,
  type ResultRecord,
} from "./record.js";
export { JsonlAppender, countContentLines, defaultMaxLineBytes, readLines, type Line, type ReadLinesOptions } from "./jsonl.js";
