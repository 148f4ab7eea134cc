/**
 * Server-sent events on a raw Node response: the headers once, then `event:`/`data:` frames.
 * Writes after the client has gone are dropped (the request's abort signal stops the work).
 */
import type { ServerResponse } from "node:http";

export class SseWriter {
  constructor(private readonly res: ServerResponse) {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", "x-accel-buffering": "no" });
  }

  /** A JSON frame, named when `event` is given (OpenAI streams use unnamed frames). */
  send(data: unknown, event?: string): void {
    this.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  }

  /** The OpenAI stream terminator. */
  done(): void {
    this.write("data: [DONE]\n\n");
  }

  end(): void {
    if (!this.res.writableEnded) this.res.end();
  }

  private write(frame: string): void {
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(frame);
  }
}
