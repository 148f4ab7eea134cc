/** Public face of the HTTP service: the server factory and its error shape. */
export { createServer, type PocketServer, type ServerOptions } from "./server.js";
export { ServeError, describeError, type ErrorBody, type ServeErrorCode } from "./errors.js";
