/** Child process (fresh): raw `A.load(bytes)` of the cached paper-trace document, the baseline cold open. */
import { readFileSync } from "node:fs";
import { announceResult } from "../lib/child.js";
import { DOC_BYTES_PATH } from "./cache.js";

const i0 = performance.now();
const A = await import("@automerge/automerge");
const importMs = performance.now() - i0;
const bytes = readFileSync(DOC_BYTES_PATH);
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const doc = A.load<{ text: string }>(bytes);
const loadMs = performance.now() - t0;
const textLength = doc.text.length;
announceResult({ importMs, loadMs, textLength, rssGrowthMB: (process.memoryUsage().rss - rss0) / 2 ** 20 });
