/**
 * Agent chat sends through this device's outbox in a real, local-only app core (issue #27; nobody runs the agent, so
 * the transcript holds only the person's messages): sends made at once arrive in send order, in each chat; a send whose
 * delivery was posted but never marked (the app died between the two) is delivered again at the next start as the
 * same entry, once; a send refused for good (its chat's plan archived) is kept and listed as failed with its error,
 * never dropped, later sends go on, and sending it again delivers it; discarded instead, it is gone and never
 * delivered, a delivered send cannot be discarded, and its key sent later is a new send. Each move of a send is said
 * to the windows ("agent-chat-outbox-changed").
 */
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { ChopinApi } from "../../shared/api.js";
import { PLANNER_AGENT_ID } from "../../shared/schema/agent-profiles.js";
import { waitFor } from "../../shared/wait-for.js";
import { createAppCore } from "../core/app-core.js";
import type { AppCore } from "../core/types.js";
import { localDbPath } from "../store/local-db.js";
import { cleanupsAfterEach } from "../sync/test-helpers.js";
import { delivered } from "./agent-chat-test-support.js";

const { cleanups, dir } = cleanupsAfterEach();

async function start(dataDir: string): Promise<AppCore> {
  const core = await createAppCore({ dataDir, mcpPort: 0, enableAgentChat: true, planner: { off: true } });
  cleanups.push(() => core.close());
  return core;
}


/** The person's messages in an agent's chat, in the conversation's order. */
async function messages(api: ChopinApi, agentId: string): Promise<{ id: string; text: string }[]> {
  const chat = await api.readAgentChat(agentId, { limit: 200 });
  return (chat?.page?.entries ?? []).filter((e) => e.author.kind === "person").map((e) => ({ id: e.id, text: e.text }));
}

describe("the agent chat outbox on one device", () => {
  it("delivers sends made at once in send order, in each chat, each once", { timeout: 60_000 }, async () => {
    const core = await start(dir("chopin-outbox-order-"));
    const scout = await core.api.createAgent({ name: "Scout" });
    const sends = Array.from({ length: 12 }, (_, i) => ({ agentId: i % 3 === 0 ? PLANNER_AGENT_ID : scout.id, text: `message ${i}`, clientRequestId: `order-${i}` }));
    const results = (await Promise.all(sends.map((s) => core.api.sendAgentChat(s.agentId, { text: s.text, clientRequestId: s.clientRequestId })))).map(delivered);
    expect(results.every((r) => r.created)).toBe(true);
    for (const agentId of [PLANNER_AGENT_ID, scout.id]) {
      const sentHere = sends.flatMap((s, i) => (s.agentId === agentId ? [{ id: results[i]!.entry.id, text: s.text }] : []));
      expect(await messages(core.api, agentId)).toEqual(sentHere);
      expect((await core.api.readAgentChat(agentId))!.outbox).toEqual([]);
    }
  });

  it("delivers again, as the same entry, a send the app posted but died before marking delivered", { timeout: 60_000 }, async () => {
    const dataDir = dir("chopin-outbox-crash-");
    const first = await start(dataDir);
    const sent = delivered(await first.api.sendAgentChat(PLANNER_AGENT_ID, { text: "posted, never marked", clientRequestId: "crash-1" }));
    await first.close();
    // The state a crash between the post and its mark leaves: the entry is in the conversation, the row says queued.
    const db = new BetterSqlite3(localDbPath(dataDir));
    expect(db.prepare("UPDATE agent_chat_outbox SET entry_id = NULL, delivered_at = NULL WHERE client_request_id = 'crash-1'").run().changes).toBe(1);
    db.close();

    const second = await start(dataDir);
    const row = () => {
      const dbNow = new BetterSqlite3(localDbPath(dataDir), { readonly: true });
      try {
        return dbNow.prepare("SELECT entry_id FROM agent_chat_outbox WHERE client_request_id = 'crash-1'").get() as { entry_id: string | null };
      } finally {
        dbNow.close();
      }
    };
    await waitFor(() => row().entry_id !== null, "the start's drain delivered the row again");
    expect(row().entry_id).toBe(sent.entry.id);
    expect(await messages(second.api, PLANNER_AGENT_ID)).toEqual([{ id: sent.entry.id, text: "posted, never marked" }]);
    expect(delivered(await second.api.sendAgentChat(PLANNER_AGENT_ID, { text: "posted, never marked", clientRequestId: "crash-1" }))).toMatchObject({ created: false, entry: { id: sent.entry.id } });
    expect(await messages(second.api, PLANNER_AGENT_ID)).toHaveLength(1);
  });

  it("keeps a send refused for good, listed with its error, lets later sends go on, and delivers it when sent again", { timeout: 60_000 }, async () => {
    const core = await start(dir("chopin-outbox-failed-"));
    const scout = await core.api.createAgent({ name: "Scout" });
    const moved: string[] = [];
    core.events.on("agent-chat-outbox-changed", ({ agentId }) => moved.push(agentId));
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "first", clientRequestId: "f-1" }));
    // Queued, then delivered: the window hears both (it lists what waits).
    expect(moved).toEqual([scout.id, scout.id]);
    await core.api.archiveDocument(first.planId);
    await expect(core.api.sendAgentChat(scout.id, { text: "refused", clientRequestId: "f-2" })).rejects.toMatchObject({ code: "document-archived" });
    const chat = await core.api.readAgentChat(scout.id);
    expect(chat).toMatchObject({ planId: first.planId, state: "active", outbox: [{ clientRequestId: "f-2", text: "refused", status: "failed", error: { code: "document-archived" } }] });
    expect(moved).toEqual([scout.id, scout.id, scout.id, scout.id]);
    // Another chat's sends go on meanwhile.
    delivered(await core.api.sendAgentChat(PLANNER_AGENT_ID, { text: "elsewhere", clientRequestId: "f-3" }));
    expect((await core.api.readAgentChat(scout.id))!.outbox).toHaveLength(1);

    await core.api.restoreDocument(first.planId);
    const again = delivered(await core.api.sendAgentChat(scout.id, { text: "refused", clientRequestId: "f-2" }));
    expect(again.created).toBe(true);
    expect(await messages(core.api, scout.id)).toEqual([
      { id: first.entry.id, text: "first" },
      { id: again.entry.id, text: "refused" },
    ]);
    expect((await core.api.readAgentChat(scout.id))!.outbox).toEqual([]);
  });

  it("discards a send refused for good: gone from the chat and never delivered; a delivered one is refused; its key later is a new send", { timeout: 60_000 }, async () => {
    const core = await start(dir("chopin-outbox-discard-"));
    const scout = await core.api.createAgent({ name: "Scout" });
    const moved: string[] = [];
    core.events.on("agent-chat-outbox-changed", ({ agentId }) => moved.push(agentId));
    const first = delivered(await core.api.sendAgentChat(scout.id, { text: "first", clientRequestId: "x-1" }));
    await core.api.archiveDocument(first.planId);
    await expect(core.api.sendAgentChat(scout.id, { text: "refused", clientRequestId: "x-2" })).rejects.toMatchObject({ code: "document-archived" });
    expect((await core.api.readAgentChat(scout.id))!.outbox).toMatchObject([{ clientRequestId: "x-2", status: "failed" }]);

    const heard = moved.length;
    expect(await core.api.discardAgentChatSend(scout.id, "x-2")).toMatchObject({ clientRequestId: "x-2", text: "refused", status: "failed", error: { code: "document-archived" } });
    expect(moved.slice(heard)).toEqual([scout.id]);
    expect(await core.api.readAgentChat(scout.id)).toMatchObject({ planId: first.planId, outbox: [] });
    await expect(core.api.discardAgentChatSend(scout.id, "x-2")).rejects.toMatchObject({ code: "not-found" });
    // Delivered: in the conversation, refused, nothing moved.
    await expect(core.api.discardAgentChatSend(scout.id, "x-1")).rejects.toMatchObject({ code: "revision-conflict", details: { entryId: first.entry.id } });
    expect(moved.slice(heard)).toEqual([scout.id]);

    // The chat takes messages again: what is delivered now never includes the discarded one.
    await core.api.restoreDocument(first.planId);
    const later = delivered(await core.api.sendAgentChat(scout.id, { text: "later", clientRequestId: "x-3" }));
    expect(await messages(core.api, scout.id)).toEqual([
      { id: first.entry.id, text: "first" },
      { id: later.entry.id, text: "later" },
    ]);
    // The discarded key sent again (other words, even) is a new send, delivered after the others.
    const again = delivered(await core.api.sendAgentChat(scout.id, { text: "refused, rewritten", clientRequestId: "x-2" }));
    expect(again.created).toBe(true);
    expect((await messages(core.api, scout.id)).map((m) => m.text)).toEqual(["first", "later", "refused, rewritten"]);
  });
});
