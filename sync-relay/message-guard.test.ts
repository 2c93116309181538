/**
 * checkRepoMessage on ephemeral (presence) messages: what automerge-repo's Presence and the relay's own goodbyes send
 * passes; a payload automerge-repo could not decode is malformed (1007). The socket-level behaviour is in
 * presence-bad-data.test.ts.
 */
import { Presence, Repo, cbor, generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { describe, expect, it } from "vitest";
import { presenceGoodbye } from "../shared/presence-goodbye.js";
import { CLOSE_CODES, type RepoFrame } from "../shared/sync-wire.js";
import { checkRepoMessage } from "./message-guard.js";

const { documentId } = parseAutomergeUrl(generateAutomergeUrl());

function ephemeral(data: Uint8Array): RepoFrame {
  return { type: "ephemeral", senderId: "alice:laptop", targetId: "chopin-relay", documentId, data, count: 1, sessionId: "s" };
}

/** The payloads a real Presence broadcasts on a handle (initial state, an update, a heartbeat, its goodbye). */
async function realPresencePayloads(): Promise<Uint8Array[]> {
  const repo = new Repo({ network: [] });
  const handle = repo.create({ text: "" });
  const sent: Uint8Array[] = [];
  handle.on("ephemeral-message-outbound", ({ data }) => sent.push(data));
  const presence = new Presence({ handle });
  presence.start({ initialState: { caret: { anchor: 0, head: 0 }, user: { name: "Alice", color: "#f00" } }, heartbeatMs: 5 });
  presence.broadcast("caret", { anchor: 3, head: 7 });
  const heartbeats = sent.length;
  await expect.poll(() => sent.length, { timeout: 5000 }).toBeGreaterThan(heartbeats);
  presence.stop();
  await repo.shutdown();
  return sent;
}

describe("checkRepoMessage on ephemeral messages", () => {
  it("passes what a real Presence sends and the relay's own goodbye", async () => {
    const payloads = await realPresencePayloads();
    expect(payloads.length).toBeGreaterThanOrEqual(4);
    for (const data of payloads) expect(checkRepoMessage(ephemeral(data))).toEqual({ ok: true });
    const goodbye = presenceGoodbye({ senderId: "alice:laptop#s1", targetId: "chopin-relay", documentId, sessionId: "relay-goodbye-1" });
    expect(checkRepoMessage(goodbye as unknown as RepoFrame)).toEqual({ ok: true });
    expect(checkRepoMessage(ephemeral(cbor.encode("any value the app broadcasts")))).toEqual({ ok: true });
  });

  it("refuses 1007 a payload that is not CBOR: a stray break code, a truncated map, trailing bytes", () => {
    const whole = cbor.encode({ __presence: { type: "heartbeat" } });
    for (const data of [new Uint8Array([0xff, 0xff]), whole.subarray(0, whole.byteLength - 1), new Uint8Array([...whole, 0x01])]) {
      expect(checkRepoMessage(ephemeral(data))).toEqual({ ok: false, code: CLOSE_CODES.malformed, reason: "ephemeral message data is not CBOR" });
    }
  });
});
