/**
 * Agent chat suite (issue #27): what the chat's own machinery costs over the conversation it is built on. One real,
 * local-only app core (the agent's turns off, so only sends and reads are timed), in this process:
 * - a send through the durable outbox (sendAgentChat: a SQLite row, the drain, the conversation's post, the row
 *   marked) against the same message posted straight to the chat plan's conversation (postMessage), interleaved; the
 *   ratio is the outbox's added latency;
 * - readAgentChat of a long chat (a page, the state from every entry, the outbox) against readConversation of the same
 *   page, so the state rule's cost over the transcript's read shows.
 * Timings are printed, never asserted.
 */
import type { DocumentId } from "../../shared/api.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAppCore } from "../../main/core/app-core.js";
import { PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import type { Row, Suite } from "../lib/report.js";
import { summarize } from "../lib/stats.js";

const SAMPLES = { quick: 30, full: 200 };
const WARMUP = 10;
/** Entries in the chat the read is timed on: a long chat, well past a page. */
const LONG_CHAT_ENTRIES = 2_000;
const READ_PAGE = 50;

function row(name: string, samples: number[]): Row {
  const s = summarize(samples);
  return { name, metrics: { n: s.n, "p50 ms": s.p50, "p95 ms": s.p95, "max ms": s.max } };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export const agentChatSuite: Suite = async ({ quick, log }) => {
  const dir = mkdtempSync(join(tmpdir(), "chopin-bench-agent-chat-"));
  const core = await createAppCore({ dataDir: dir, mcpPort: 0, enableAgentChat: true, planner: { off: true } });
  try {
    const samples = quick ? SAMPLES.quick : SAMPLES.full;
    const first = await core.api.sendAgentChat(PLANNER_AGENT_ID, { text: "Begin", clientRequestId: "bench-begin" });
    if (first.queued) throw new Error("a local-only send was queued");
    const planId: DocumentId = first.planId;

    log(`sends: ${samples} through the outbox and ${samples} posted straight, interleaved`);
    const outbox: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < WARMUP + samples; i++) {
      const viaOutbox = await timed(() => core.api.sendAgentChat(PLANNER_AGENT_ID, { text: `Message ${i} through the outbox`, clientRequestId: `bench-o-${i}` }));
      const straight = await timed(() => core.api.postMessage(planId, { text: `Message ${i} posted straight`, to: "planner", clientRequestId: `bench-d-${i}` }));
      if (i >= WARMUP) {
        outbox.push(viaOutbox);
        direct.push(straight);
      }
    }

    log(`reads: a chat of ${LONG_CHAT_ENTRIES} entries`);
    const have = (await core.api.readConversation(planId, { limit: 1 })).total;
    for (let i = have; i < LONG_CHAT_ENTRIES; i++) {
      await core.api.postMessage(planId, { text: `Filler ${i}: ${"words of a long chat ".repeat(4)}`, to: i % 3 === 0 ? "planner" : "room", clientRequestId: `bench-f-${i}` });
    }
    const chatReads: number[] = [];
    const pageReads: number[] = [];
    for (let i = 0; i < WARMUP + samples; i++) {
      const chat = await timed(() => core.api.readAgentChat(PLANNER_AGENT_ID, { limit: READ_PAGE }));
      const page = await timed(() => core.api.readConversation(planId, { limit: READ_PAGE }));
      if (i >= WARMUP) {
        chatReads.push(chat);
        pageReads.push(page);
      }
    }

    const o = summarize(outbox);
    const d = summarize(direct);
    const c = summarize(chatReads);
    const p = summarize(pageReads);
    return {
      suite: "agent-chat",
      tables: [
        {
          title: "A send to an agent: through the outbox vs posted straight (local-only core)",
          rows: [row("sendAgentChat (outbox)", outbox), row("postMessage (baseline)", direct), { name: "outbox / straight", metrics: { "p50 x": o.p50 / d.p50, "p95 x": o.p95 / d.p95, "added p50 ms": o.p50 - d.p50 } }],
        },
        {
          title: `Reading a chat of ${LONG_CHAT_ENTRIES} entries, a page of ${READ_PAGE}`,
          rows: [row("readAgentChat", chatReads), row("readConversation (baseline)", pageReads), { name: "chat / page", metrics: { "p50 x": c.p50 / p.p50, "p95 x": c.p95 / p.p95 } }],
        },
      ],
      notes: ["The agent's turns are off: only the chat's own machinery is timed. The baselines run interleaved in the same core."],
    };
  } finally {
    await core.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
