/**
 * Storage faults under a real relay in this process: a second relay on the same folder, a document whose stored bytes
 * are garbage, and saves that fail while clients sync (data-lock.ts, corrupt-chunks.ts, durable-acks.ts).
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WireFrame } from "../shared/sync-wire.js";
import { describeRelayFailure } from "./startup-errors.js";
import { RELAY_PEER_ID, startRelay, type RunningRelay } from "./server.js";
import { RawDocSync, rawClient, tempDir, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

type Items = { items: string[] };

let dir: ReturnType<typeof tempDir>;
const relays: RunningRelay[] = [];
const sockets: RawClient[] = [];

beforeEach(() => {
  dir = tempDir("chopin-relay-faults-");
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  for (const r of relays.splice(0)) await r.close();
  dir.remove();
});

async function relayIn(data: string, log: string[] = []): Promise<RunningRelay> {
  const relay = await startRelay({ dataDir: data, log: (line) => log.push(line) });
  relays.push(relay);
  return relay;
}

async function joined(relay: RunningRelay, token: string, peerId: string): Promise<RawClient> {
  const c = rawClient(relay.url, token);
  sockets.push(c);
  await c.join(peerId);
  return c;
}

function newDocumentId(): string {
  return parseAutomergeUrl(generateAutomergeUrl()).documentId;
}

/** The heads of the last sync message the relay sent this client for the document (what the client counts as stored). */
function acknowledgedHeads(client: RawClient, documentId: string): string[] | null {
  const last = client.frames.filter((f) => f.type === "sync" && (f as { documentId?: string }).documentId === documentId).at(-1);
  return last ? A.decodeSyncMessage(new Uint8Array((last as { data: Uint8Array }).data)).heads : null;
}

describe("one relay per data folder", () => {
  it("a second relay on the same folder is refused with a sentence; the first keeps serving", async () => {
    const data = join(dir.path, "data");
    const first = await relayIn(data);
    const error = await startRelay({ dataDir: data }).then(
      (second) => {
        relays.push(second);
        return null;
      },
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    expect(describeRelayFailure(error, { dataDir: data })).toBe(
      `Another relay is already serving ${data} (it holds relay.lock there): stop that relay first, or choose another folder with --data (or CHOPIN_RELAY_DATA).`,
    );
    expect((await fetch(`${first.httpUrl}/healthz`)).status).toBe(200);
    // Stopped, the folder is free again.
    await first.close();
    relays.splice(relays.indexOf(first), 1);
    await relayIn(data);
  });

  it("names relay.sqlite when the database is not one", () => {
    const error = Object.assign(new Error("file is not a database"), { code: "SQLITE_NOTADB" });
    expect(describeRelayFailure(error, { dataDir: "/srv/relay" })).toMatch(/^The relay database \(relay\.sqlite\) in \/srv\/relay is not a readable/);
  });
});

describe("a stored document whose bytes are garbage", () => {
  it("is answered unavailable, then restored from a member's good copy, other documents untouched", async () => {
    const data = join(dir.path, "data");
    let relay = await relayIn(data);
    const token = relay.users.add("alice").token;
    const bad = newDocumentId();
    const good = newDocumentId();
    const writer = await joined(relay, token, "alice:laptop");
    const badCopy = new RawDocSync<Items>(writer, "alice:laptop", RELAY_PEER_ID, bad, A.from<Items>({ items: ["kept by alice"] }));
    const goodCopy = new RawDocSync<Items>(writer, "alice:laptop", RELAY_PEER_ID, good, A.from<Items>({ items: ["fine"] }));
    await badCopy.push();
    await goodCopy.push();
    writer.ws.terminate();
    await relay.close();
    relays.splice(0);
    const db = new Database(join(data, "relay.sqlite"));
    expect(db.prepare("UPDATE automerge_chunks SET data = randomblob(length(data)) WHERE key LIKE ?").run(`${bad}%`).changes).toBeGreaterThan(0);
    db.close();

    const log: string[] = [];
    relay = await relayIn(data, log);
    // A fresh client asking gets an answer, not silence.
    const fresh = await joined(relay, token, "alice:fresh");
    const [, request] = A.generateSyncMessage(A.init(), A.initSyncState());
    fresh.send({ type: "request", senderId: "alice:fresh", targetId: RELAY_PEER_ID, documentId: bad, data: request! } as WireFrame);
    await waitFor(() => fresh.frames.some((f) => f.type === "doc-unavailable" && (f as { documentId?: string }).documentId === bad), "doc-unavailable");
    expect(log.some((line) => line.includes(`document ${bad}: 1 of 1 stored chunk(s) are not Automerge data`))).toBe(true);
    expect(new Database(join(data, "relay.sqlite"), { readonly: true }).prepare("SELECT count(*) AS n FROM quarantined_chunks").get()).toEqual({ n: 1 });

    // The member holding the document syncs it back; the relay holds it again and the member's copy is unchanged.
    const member = await joined(relay, token, "alice:laptop");
    const restoring = new RawDocSync<Items>(member, "alice:laptop", RELAY_PEER_ID, bad, badCopy.doc);
    await restoring.push();
    expect(restoring.doc.items).toEqual(["kept by alice"]);
    const restored = await relay.repo.find<Items>(bad as DocumentId);
    expect(restored.doc().items).toEqual(["kept by alice"]);
    expect((await relay.repo.find<Items>(good as DocumentId)).doc().items).toEqual(["fine"]);
  });
});

describe("saves that fail while clients sync", () => {
  it("keep the relay up, never acknowledge unstored heads, log it, and acknowledge once a save works", async () => {
    const log: string[] = [];
    const relay = await relayIn(join(dir.path, "data"), log);
    const token = relay.users.add("alice").token;
    const documentId = newDocumentId();
    const client = await joined(relay, token, "alice:laptop");
    const copy = new RawDocSync<Items>(client, "alice:laptop", RELAY_PEER_ID, documentId, A.from<Items>({ items: ["stored"] }));
    await copy.push();

    // The disk stops taking writes: every chunk write fails inside SQLite, as on a full or read-only disk.
    relay.db.exec(`CREATE TEMP TRIGGER refuse_writes BEFORE INSERT ON automerge_chunks BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    relay.db.exec(`CREATE TEMP TRIGGER refuse_updates BEFORE UPDATE ON automerge_chunks BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    copy.doc = A.change(copy.doc, (d) => void d.items.push("typed while the disk is full"));
    const mine = A.getHeads(copy.doc);
    const sent = client.frames.length;
    // The sync protocol by hand (RawDocSync.push would wait for the acknowledgement this test expects to be withheld).
    let state = A.initSyncState();
    let seen = sent;
    const relayHas = () => JSON.stringify(A.getHeads(relay.repo.handles[documentId as DocumentId]!.doc() as A.Doc<Items>)) === JSON.stringify(mine);
    await waitFor(() => {
      for (const f of client.frames.slice(seen)) {
        if (f.type === "sync") [copy.doc, state] = A.receiveSyncMessage(copy.doc, state, new Uint8Array((f as { data: Uint8Array }).data));
      }
      seen = client.frames.length;
      let message: Uint8Array | null;
      [state, message] = A.generateSyncMessage(copy.doc, state);
      if (message) client.send({ type: "sync", senderId: "alice:laptop", targetId: RELAY_PEER_ID, documentId, data: message } as WireFrame);
      return relayHas();
    }, "the relay has the change in memory");
    await waitFor(() => log.some((line) => line.startsWith(`could not store document ${documentId}`)), "the failed save is logged");
    // The relay has the change in memory but says nothing that shows it stored.
    expect(A.getHeads(relay.repo.handles[documentId as DocumentId]!.doc() as A.Doc<Items>)).toEqual(mine);
    for (const f of client.frames.slice(sent)) {
      if (f.type === "sync") expect(A.decodeSyncMessage(new Uint8Array((f as { data: Uint8Array }).data)).heads).not.toEqual(mine);
    }
    expect(client.closed).toBeNull();
    expect((await fetch(`${relay.httpUrl}/healthz`)).status).toBe(200);

    relay.db.exec("DROP TRIGGER refuse_writes; DROP TRIGGER refuse_updates");
    await waitFor(() => JSON.stringify(acknowledgedHeads(client, documentId)) === JSON.stringify(mine), "the acknowledgement once stored", 20_000);
    expect(log).toContain("storage works again: every document is stored");
    expect(client.closed).toBeNull();
  });
});
