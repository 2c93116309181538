/**
 * Compares Automerge builds on the operations that decided which one the app runs (docs/architecture.md, "Automerge
 * version"): applying one remote keystroke into a 100 KB text and into the automerge-paper trace document, a local
 * keystroke there, deleting 200 K characters at once, building and loading the trace. Not part of `npm run bench`
 * (it needs the other version installed beside the app's):
 *   npm i --prefix /tmp/am3 @automerge/automerge@3.5.0
 *   npx tsx bench/automerge-version.ts /tmp/am3/node_modules/@automerge/automerge/dist/mjs/entrypoints/fullfat_node.js
 *   npx tsx bench/automerge-version.ts            # the app's own (2.2.9)
 */
import type { next as AmNext } from "@automerge/automerge";
import { loadTrace, PAPER_TRACE_PATH } from "./cold-open/trace.js";

const TEXT_CHARS = 100_000;
const BIG_DELETE_CHARS = 200_000;
const SAMPLES = 15;

type Am = typeof AmNext;
type TextDoc = { text: string };

async function automerge(path: string | undefined): Promise<Am> {
  const mod = (await import(path ?? "@automerge/automerge")) as { next?: Am } & Am;
  // 3.x exports the next API at the top and as `next`; 2.x only as `next`.
  return mod.next ?? mod;
}

const median = (xs: number[]): string => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2);

/** Median ms to apply one remote single-character insert into `doc`, made by another actor from the same state. */
function remoteApply(A: Am, doc: AmNext.Doc<TextDoc>, at: number): string {
  let other = A.clone(doc, { actor: "0b0b0b0b" });
  let target = A.clone(doc);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    other = A.change(other, (d) => A.splice(d, ["text"], at + i, 0, "y"));
    const change = A.getLastLocalChange(other)!;
    const t0 = performance.now();
    [target] = A.applyChanges(target, [change]);
    times.push(performance.now() - t0);
  }
  return median(times);
}

const A = await automerge(process.argv[2]);
let text = A.from<TextDoc>({ text: "" });
text = A.change(text, (d) => A.splice(d, ["text"], 0, 0, "x".repeat(TEXT_CHARS)));
console.log(`remote keystroke into ${TEXT_CHARS} chars: ${remoteApply(A, text, TEXT_CHARS / 2)} ms`);

let big = A.from<TextDoc>({ text: "" });
big = A.change(big, (d) => A.splice(d, ["text"], 0, 0, "w".repeat(BIG_DELETE_CHARS)));
let t0 = performance.now();
big = A.change(big, (d) => A.splice(d, ["text"], 0, BIG_DELETE_CHARS));
console.log(`delete ${BIG_DELETE_CHARS} chars in one splice: ${(performance.now() - t0).toFixed(0)} ms`);

const trace = loadTrace(PAPER_TRACE_PATH);
t0 = performance.now();
let doc = A.from<TextDoc>({ text: trace.startContent });
for (const patches of trace.txns) {
  doc = A.change(doc, (d) => {
    for (const [pos, del, ins] of patches) A.splice(d, ["text"], pos, del, ins ?? "");
  });
}
console.log(`build the trace (${trace.txns.length} changes): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const saved = A.save(doc);
const rss0 = process.memoryUsage().rss;
t0 = performance.now();
const loaded = A.load<TextDoc>(saved);
const loadMs = performance.now() - t0;
console.log(`load it: ${loadMs.toFixed(0)} ms, RSS +${((process.memoryUsage().rss - rss0) / 1e6).toFixed(0)} MB (same process: indicative)`);
console.log(`remote keystroke into the trace document: ${remoteApply(A, loaded, 1000)} ms`);
let local = A.clone(loaded);
const localTimes: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const t1 = performance.now();
  local = A.change(local, (d) => A.splice(d, ["text"], 2000 + i, 0, "z"));
  localTimes.push(performance.now() - t1);
}
console.log(`local keystroke in the trace document: ${median(localTimes)} ms`);
