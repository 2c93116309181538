/**
 * The replica host's Web Worker entry. Automerge's wasm glue uses top-level await, and a module worker hands out
 * messages as soon as its script runs, before such an import has settled: messages that came meanwhile would be
 * lost. So this entry imports nothing that waits, listens at once, keeps what comes, and hands it all to the host
 * (replica-worker-host.ts) once that has loaded.
 * What must stay true: no message is dropped or reordered between the page and the host.
 */
import type { MessageEndpoint } from "../replica-link/port-link.js";

const scope = self as unknown as MessageEndpoint;
const early: unknown[] = [];
const keep = (event: MessageEvent) => early.push(event.data);
scope.addEventListener("message", keep);

void import("./replica-worker-host.js").then(({ runReplicaWorker }) => {
  scope.removeEventListener("message", keep);
  runReplicaWorker(scope, early);
});
