/**
 * Discarding a send from the outbox's drain (issue #27), with this device's real table and a delivery the test holds
 * open (a gate), so the drain is caught in the middle of a row: a discard of that very row waits for its delivery to
 * settle (delivered: refused, kept; kept waiting: discarded); a discard of a later row the drain has already listed
 * removes it at once, and the drain never delivers it (the send waiting for it hears it was discarded).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentChatSendResult } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import { waitFor } from "../../shared/wait-for.js";
import { AgentChatOutboxRecords, type OutboxChat, type OutboxRow } from "../store/agent-chat-outbox.js";
import { openLocalDb } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { ChatOutbox, type Delivered } from "./chat-outbox.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const chat: OutboxChat = { scope: { kind: "device", id: "dev-1" }, agentId: "scout", person: "device:dev-1" };

/** An outbox whose deliveries wait until the test settles each one (`pass` or `refuse`), in the order they began. */
function gatedOutbox() {
  const dir = tempDir("chopin-chat-outbox-");
  const db = openLocalDb(dir.path);
  cleanups.push(() => dir.remove(), () => db.close());
  const records = new AgentChatOutboxRecords(db);
  const begun: string[] = [];
  const open = new Map<string, { pass(): void; refuse(error: ChopinError): void }>();
  const outbox = new ChatOutbox({
    records,
    here: () => ({ scope: chat.scope, person: chat.person, relayUrl: null }),
    deliver: (row: OutboxRow) =>
      new Promise<Delivered>((resolve, reject) => {
        begun.push(row.clientRequestId);
        open.set(row.clientRequestId, {
          pass: () => resolve({ planId: "plan" as Delivered["planId"], created: true, entry: { id: `entry-${row.clientRequestId}` } as Delivered["entry"] }),
          refuse: reject,
        });
      }),
  });
  const send = (clientRequestId: string, text = clientRequestId): Promise<AgentChatSendResult> => outbox.send(async () => chat, { clientRequestId, text });
  const delivering = (id: string) => waitFor(() => open.get(id), `the drain delivering ${id}`);
  return { records, outbox, begun, send, delivering };
}

describe("discarding a send while the outbox drains", () => {
  it("waits for the drain's own row: delivered, the discard is refused and the row kept", async () => {
    const { records, outbox, send, delivering } = gatedOutbox();
    const sent = send("a");
    const gate = await delivering("a");
    const discarded = outbox.discard(chat, "a").then(
      () => "discarded",
      (error: ChopinError) => error,
    );
    gate.pass();
    expect(await sent).toMatchObject({ queued: false, entry: { id: "entry-a" } });
    expect(await discarded).toMatchObject({ code: "revision-conflict", details: { entryId: "entry-a" } });
    expect(records.byRequest("a")).toMatchObject({ entryId: "entry-a" });
  });

  it("waits for the drain's own row: kept waiting, the discard then removes it and nothing delivers it later", async () => {
    const { records, outbox, begun, send, delivering } = gatedOutbox();
    const sent = send("a", "written offline");
    const gate = await delivering("a");
    const discarded = outbox.discard(chat, "a");
    gate.refuse(new ChopinError("relay-unavailable", "Not reached."));
    // The send answers after its row settled: queued, or (the discard having run first) that it was discarded.
    const answer = await sent.catch((error: ChopinError) => error);
    expect(answer instanceof ChopinError ? answer.code : answer.queued).toBe(answer instanceof ChopinError ? "not-found" : true);
    expect(await discarded).toMatchObject({ clientRequestId: "a", text: "written offline", status: "waiting", error: { code: "relay-unavailable" } });
    expect(records.byRequest("a")).toBeNull();
    await outbox.drain();
    expect(begun).toEqual(["a"]);
    await expect(outbox.discard(chat, "a")).rejects.toMatchObject({ code: "not-found" });
  });

  it("removes at once a later row the drain already listed: never delivered, its send told so, the rows around it delivered in order", async () => {
    const { records, outbox, begun, send, delivering } = gatedOutbox();
    // Queued before the drain begins (written while the app was stopped, say), so its pass lists all three at once.
    for (const [i, id] of ["a", "b", "c"].entries()) records.queue(chat, id, id, i);
    const sends = ["a", "b", "c"].map((id) => send(id).catch((error: ChopinError) => error));
    const first = await delivering("a");
    // "b" goes while "a" is on its way, after the pass listed it.
    expect(await outbox.discard(chat, "b")).toMatchObject({ clientRequestId: "b", status: "waiting" });
    first.pass();
    (await delivering("c")).pass();
    const [a, b, c] = await Promise.all(sends);
    expect(a).toMatchObject({ queued: false, entry: { id: "entry-a" } });
    expect(b).toMatchObject({ code: "not-found", message: expect.stringContaining("discarded before it was delivered") });
    expect(c).toMatchObject({ queued: false, entry: { id: "entry-c" } });
    expect(begun).toEqual(["a", "c"]);
    expect(records.undelivered(chat.scope, chat.person, { withFailed: true })).toEqual([]);
    // Another chat's or person's key is not this chat's: nothing to discard.
    await expect(outbox.discard({ ...chat, agentId: "planner" }, "c")).rejects.toMatchObject({ code: "not-found" });
  });
});
