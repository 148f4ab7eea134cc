/**
 * Runs tasks in a worker thread with a wall-clock limit per task: a task that overruns (a hung
 * compile cannot be interrupted from inside the same thread) gets its worker terminated and a
 * fresh one started for the next task. The worker entry is TypeScript, loaded through tsx's ESM
 * hooks registered inside the worker. Protocol: the worker posts `{ ready: true }` once set up,
 * then answers each posted task with one message.
 */
import { Worker } from "node:worker_threads";

export type IsolatedResult<R> = { readonly kind: "ok"; readonly value: R } | { readonly kind: "timeout" } | { readonly kind: "died"; readonly error: string };

export class IsolatedRunner<T, R> {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  /** Workers started so far (1 + restarts). */
  starts = 0;

  constructor(
    private readonly entry: URL,
    private readonly workerData: unknown,
  ) {}

  async run(task: T, limitMs: number): Promise<IsolatedResult<R>> {
    const worker = await this.start();
    return new Promise((resolve) => {
      const finish = (result: IsolatedResult<R>, kill: boolean): void => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (kill) this.discard();
        resolve(result);
      };
      const onMessage = (value: R): void => finish({ kind: "ok", value }, false);
      const onError = (err: Error): void => finish({ kind: "died", error: `${err.name}: ${err.message}` }, true);
      const onExit = (code: number): void => finish({ kind: "died", error: `worker exited with code ${code}` }, true);
      const timer = setTimeout(() => finish({ kind: "timeout" }, true), limitMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage(task);
    });
  }

  async close(): Promise<void> {
    if (this.worker) await this.worker.terminate();
    this.worker = undefined;
    this.ready = undefined;
  }

  private discard(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    this.ready = undefined;
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise((resolve, reject) => {
      const code = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(this.entry.href)}); });`;
      const worker = new Worker(code, { eval: true, workerData: this.workerData, resourceLimits: { maxOldGenerationSizeMb: 4096 } });
      this.starts++;
      this.worker = worker;
      worker.once("message", () => resolve(worker));
      worker.once("error", reject);
    });
    return this.ready;
  }
}
