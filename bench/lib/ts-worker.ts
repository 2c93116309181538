/**
 * Starts a TypeScript module in a worker thread. Node 20 does not carry tsx's loader into workers, so the thread
 * registers it itself before importing the module.
 */
import { Worker } from "node:worker_threads";
import { pathToFileURL } from "node:url";

export function startTsWorker(script: string, workerData: unknown): Worker {
  const url = pathToFileURL(script).href;
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
