/**
 * The relay process in-process on 127.0.0.1, driven over its HTTP routes and the raw wire: authentication, peer
 * binding, revocation through the CLI code path, bad input of every kind, restart. Sync between real client Repos is
 * tested in main/sync/ (sync-relay/ may not import the client).
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_RELAY_MESSAGE_BYTES } from "../shared/limits.js";
import { workspaceIndexSchema } from "../shared/schema/workspace-index.js";
import { CLOSE_CODES, RELAY_PROTOCOL_VERSION, encodeFrame, type WireFrame } from "../shared/sync-wire.js";
import { runUserCommand } from "./cli-commands.js";
import { RELAY_PEER_ID, startRelay, type RunningRelay } from "./server.js";
import { QUERY_TOKEN_REFUSED } from "./http-routes.js";
import { rawClient, tempDir, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";
import { RELAY_REVOCATION_BOUND_MS } from "./limits.js";

let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay;
let alice: string;
let bob: string;
const sockets: RawClient[] = [];

function client(token: string | null, how: "header" | "query" = "header"): RawClient {
  const c = rawClient(relay.url, token, how);
  sockets.push(c);
  return c;
}

async function health(): Promise<{ ok: boolean; documents: number; connections: number }> {
  const res = await fetch(`${relay.httpUrl}/healthz`);
  expect(res.status).toBe(200);
  return (await res.json()) as { ok: boolean; documents: number; connections: number };
}

/** A relay that still serves: healthz answers and a fresh client can join. */
async function relayStillServes(): Promise<void> {
  expect((await health()).ok).toBe(true);
  const probe = client(alice);
  await probe.join(`alice:probe-${sockets.length}`);
}

function requestFrame(senderId: string, documentId: string): WireFrame {
  const [, message] = A.generateSyncMessage(A.init(), A.initSyncState());
  return { type: "request", senderId, targetId: RELAY_PEER_ID, documentId, data: message! };
}

const silentIo = { out: () => undefined, err: () => undefined };

beforeEach(async () => {
  dir = tempDir();
  relay = await startRelay({ dataDir: join(dir.path, "relay") });
  alice = relay.users.add("alice").token;
  bob = relay.users.add("bob").token;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await relay.close();
  dir.remove();
});

describe("relay HTTP routes", () => {
  it("answers /healthz with loaded documents and connections", async () => {
    const c = client(alice);
    await c.join("alice:laptop");
    const body = await health();
    expect(body).toEqual({ ok: true, documents: expect.any(Number), connections: 1 });
  });

  it("answers HEAD /healthz as GET without a body (health checkers use it); other methods 405", async () => {
    const head = await fetch(`${relay.httpUrl}/healthz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await fetch(`${relay.httpUrl}/healthz`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });

  it("answers /v1/team for a member and 401 with a reason otherwise", async () => {
    const ok = await fetch(`${relay.httpUrl}/v1/team`, { headers: { authorization: `Bearer ${alice}` } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ user: "alice", teamIndexDocumentId: relay.teamIndexDocumentId });
    // A token in the address is refused (it lands in proxies' logs), with a sentence saying where it goes instead.
    const viaQuery = await fetch(`${relay.httpUrl}/v1/team?token=${bob}`);
    expect(viaQuery.status).toBe(400);
    expect(await viaQuery.json()).toEqual({ code: "invalid-input", message: QUERY_TOKEN_REFUSED });
    const variants: Record<string, string>[] = [{}, { authorization: "Bearer nope" }, { authorization: `Basic ${alice}` }];
    for (const headers of variants) {
      const res = await fetch(`${relay.httpUrl}/v1/team`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "unauthorized", message: expect.stringMatching(/token/) });
    }
    expect((await fetch(`${relay.httpUrl}/nothing`)).status).toBe(404);
  });

  it("creates the team index once and keeps it across a restart", async () => {
    const id = relay.teamIndexDocumentId;
    const handle = await relay.repo.find(id);
    expect(workspaceIndexSchema.parse(handle.doc())).toMatchObject({ scope: "team", documents: {} });
    await relay.close();
    relay = await startRelay({ dataDir: join(dir.path, "relay") });
    expect(relay.teamIndexDocumentId).toBe(id);
    expect(workspaceIndexSchema.parse((await relay.repo.find(id)).doc()).scope).toBe("team");
  });
});

describe("relay authentication at the upgrade", () => {
  it("refuses a missing or wrong token with 401 and a reason, and stays up", async () => {
    for (const token of [null, "wrong-token"]) {
      const c = client(token);
      await waitFor(() => c.refused !== null, "refusal");
      expect(c.refused!.status).toBe(401);
      expect(JSON.parse(c.refused!.body)).toMatchObject({ code: "unauthorized", message: expect.any(String) });
    }
    await relayStillServes();
  });

  it("logs a refused sign-in with the address, status and reason, never the token", async () => {
    const lines: string[] = [];
    const logged = await startRelay({ dataDir: join(dir.path, "logged"), log: (line) => lines.push(line) });
    try {
      const c = rawClient(logged.url, "wrong-token-1234", "header");
      sockets.push(c);
      await waitFor(() => c.refused !== null, "refusal");
      await waitFor(() => lines.some((l) => l.startsWith("refused sign-in at upgrade")), "the refusal logged");
      expect(lines.find((l) => l.startsWith("refused sign-in"))).toMatch(/^refused sign-in at upgrade from (::ffff:)?127\.0\.0\.1: 401 The relay token/);
      // The same address again within the interval: counted, not logged again (a retrying client must not flood it).
      const res = await fetch(`${logged.httpUrl}/v1/team`, { headers: { authorization: "Bearer wrong-token-1234" } });
      expect(res.status).toBe(401);
      expect(lines.filter((l) => l.startsWith("refused sign-in"))).toHaveLength(1);
      expect(lines.join("\n")).not.toContain("wrong-token-1234");
    } finally {
      await logged.close();
    }
  });

  it("logs who joins and leaves (user, peer id, address, close code and reason) and whom a revocation cut, never a token", async () => {
    const lines: string[] = [];
    const logged = await startRelay({ dataDir: join(dir.path, "logged"), log: (line) => lines.push(line), userPollMs: 20 });
    try {
      const carolToken = logged.users.add("carol").token;
      const daveToken = logged.users.add("dave").token;
      const carol = rawClient(logged.url, carolToken);
      const dave = rawClient(logged.url, daveToken);
      sockets.push(carol, dave);
      await carol.join("carol:laptop");
      await dave.join("dave:phone");
      await waitFor(() => lines.filter((l) => l.startsWith("joined: ")).length === 2, "two joins logged");
      expect(lines).toContainEqual(expect.stringMatching(/^joined: carol as peer carol:laptop from (::ffff:)?127\.0\.0\.1$/));

      // A reason the client chose cannot forge a second log line.
      carol.ws.close(1000, "bye\nrelay stopped");
      await waitFor(() => lines.some((l) => l.startsWith("left: carol")), "carol's leave logged");
      expect(lines).toContainEqual(expect.stringMatching(/^left: carol as peer carol:laptop from (::ffff:)?127\.0\.0\.1 \(1000 bye\?relay stopped\)$/));

      const early = rawClient(logged.url, carolToken);
      sockets.push(early);
      await waitFor(() => early.opened, "unjoined socket open");
      early.ws.terminate();
      await waitFor(() => lines.some((l) => l.startsWith("left: carol before joining")), "unjoined leave logged");
      expect(lines).toContainEqual(expect.stringMatching(/^left: carol before joining from (::ffff:)?127\.0\.0\.1 \(1006\)$/));

      expect(logged.users.revoke("dave")).toBe(true);
      await waitFor(() => dave.closed !== null, "dave cut");
      await waitFor(() => lines.some((l) => l.startsWith("cut ")), "revocation logged");
      expect(lines).toContainEqual("cut 1 revoked connection(s) of dave");
      expect(lines).toContainEqual(expect.stringMatching(/^left: dave as peer dave:phone from \S+ \(4401 access to this relay was revoked\)$/));
      for (const token of [carolToken, daveToken]) expect(lines.join("\n")).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it("refuses a token in the address at the upgrade, unless the operator allowed it for tools", async () => {
    const refused = client(bob, "query");
    await waitFor(() => refused.refused !== null, "the upgrade refused");
    expect(refused.refused!.status).toBe(400);
    expect(JSON.parse(refused.refused!.body)).toEqual({ code: "invalid-input", message: QUERY_TOKEN_REFUSED });
    await relay.close();
    relay = await startRelay({ dataDir: join(dir.path, "relay"), allowQueryToken: true });
    const allowed = client(bob, "query");
    await allowed.join("bob:tool");
    const viaQuery = await fetch(`${relay.httpUrl}/v1/team?token=${bob}`);
    expect(((await viaQuery.json()) as { user: string }).user).toBe("bob");
  });

  it("says how it admits members at /v1/admission, asked without a token", async () => {
    const res = await fetch(`${relay.httpUrl}/v1/admission`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ methods: ["relay-token"] });
  });
});

describe("relay peer binding", () => {
  it("refuses a peer id that belongs to another user, with a reason", async () => {
    const owner = client(alice);
    await owner.join("alice:laptop");
    const thief = client(bob);
    await expect(thief.join("alice:laptop")).rejects.toThrow(/join refused/);
    expect(thief.closed).toMatchObject({ code: CLOSE_CODES.peerRefused, reason: expect.stringMatching(/belong/) });
    expect(thief.frames).toContainEqual(expect.objectContaining({ type: "error" }));
    // The owner's connection is untouched.
    expect(owner.closed).toBeNull();
    const plain = client(bob);
    await plain.join("shared-device");
    const squatter = client(alice);
    await expect(squatter.join("shared-device")).rejects.toThrow(/join refused/);
    expect(squatter.closed?.code).toBe(CLOSE_CODES.peerRefused);
  });

  it("refuses a peer id carrying the relay's session marks, which would read as another user's session", async () => {
    const plain = client(bob);
    await plain.join("bobplain");
    for (const id of ["bobplain#s2>x", "x>y", "alice:laptop#s7"]) {
      const c = client(alice);
      await expect(c.join(id), id).rejects.toThrow(/join refused/);
      expect(c.closed).toMatchObject({ code: CLOSE_CODES.peerRefused, reason: expect.stringMatching(/may not contain ">" or end in "#s<number>"/) });
    }
    expect(plain.closed).toBeNull();
    // A "#s" that is not the relay's suffix is an ordinary id.
    await client(alice).join("alice:#shared");
  });

  it("refuses a join with the relay's own peer id", async () => {
    const c = client(alice);
    await expect(c.join(RELAY_PEER_ID)).rejects.toThrow(/join refused/);
  });

  it("lets a second connection of the same user and peer id replace the first cleanly", async () => {
    const first = client(alice);
    await first.join("alice:laptop");
    const second = client(alice);
    await second.join("alice:laptop");
    await waitFor(() => first.closed !== null, "first connection closed");
    expect(first.closed!.code).toBe(CLOSE_CODES.replaced);
    expect(second.closed).toBeNull();
    await waitFor(() => relay.connections() === 1, "one connection left");
  });
});

describe("relay revocation", () => {
  it("cuts a revoked user's live sockets within RELAY_REVOCATION_BOUND_MS (revoked via the CLI code path)", async () => {
    const laptop = client(bob);
    await laptop.join("bob:laptop");
    const phone = client(bob);
    await phone.join("bob:phone");
    const other = client(alice);
    await other.join("alice:laptop");

    // The CLI opens its own connection to the same database file, as `npm run relay -- user revoke` does.
    expect(runUserCommand({ kind: "user-revoke", handle: "bob", dataDir: join(dir.path, "relay") }, silentIo)).toBe(0);
    await waitFor(() => laptop.closed !== null && phone.closed !== null, "revoked sockets closed", RELAY_REVOCATION_BOUND_MS);
    expect(laptop.closed).toEqual({ code: CLOSE_CODES.revoked, reason: expect.stringMatching(/revoked/) });
    expect(phone.closed?.code).toBe(CLOSE_CODES.revoked);
    expect(other.closed).toBeNull();
    const again = client(bob);
    await waitFor(() => again.refused !== null, "revoked token refused");
    expect(again.refused!.status).toBe(401);
  });
});

describe("relay bad input", () => {
  it("closes 1007 with a reason on a frame that is not CBOR, and stays up", async () => {
    const c = client(alice);
    await c.join("alice:laptop");
    c.send(new Uint8Array([0xff, 0x00, 0x13, 0x37]));
    await waitFor(() => c.closed !== null, "close");
    expect(c.closed).toEqual({ code: CLOSE_CODES.malformed, reason: expect.stringMatching(/CBOR|map/) });
    await relayStillServes();
  });

  it("closes 1007 on a text frame and on a sync message whose data is not a sync message", async () => {
    const text = client(alice);
    await text.join("alice:a");
    text.send("hello");
    await waitFor(() => text.closed !== null, "close");
    expect(text.closed!.code).toBe(CLOSE_CODES.malformed);

    const garbage = client(alice);
    await garbage.join("alice:b");
    const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
    garbage.send({ type: "sync", senderId: "alice:b", targetId: RELAY_PEER_ID, documentId, data: new Uint8Array([1, 2, 3]) });
    await waitFor(() => garbage.closed !== null, "close");
    expect(garbage.closed).toEqual({ code: CLOSE_CODES.malformed, reason: expect.stringMatching(/sync message/) });

    const badId = client(alice);
    await badId.join("alice:c");
    badId.send({ ...requestFrame("alice:c", "not-a-document-id") });
    await waitFor(() => badId.closed !== null, "close");
    expect(badId.closed!.code).toBe(CLOSE_CODES.malformed);
    await relayStillServes();
  });

  it("closes 1008 on a message before join, a spoofed sender, or a message for another peer", async () => {
    const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
    const early = client(alice);
    await waitFor(() => early.opened, "open");
    early.send(requestFrame("alice:x", documentId));
    await waitFor(() => early.closed !== null, "close");
    expect(early.closed).toEqual({ code: CLOSE_CODES.policy, reason: expect.stringMatching(/join/) });

    const spoof = client(alice);
    await spoof.join("alice:y");
    spoof.send(requestFrame("bob:desktop", documentId));
    await waitFor(() => spoof.closed !== null, "close");
    expect(spoof.closed?.code).toBe(CLOSE_CODES.policy);

    const elsewhere = client(alice);
    await elsewhere.join("alice:z");
    elsewhere.send({ ...requestFrame("alice:z", documentId), targetId: "bob:desktop" });
    await waitFor(() => elsewhere.closed !== null, "close");
    expect(elsewhere.closed?.code).toBe(CLOSE_CODES.policy);
    await relayStillServes();
  });

  it("accepts a frame of exactly MAX_RELAY_MESSAGE_BYTES and closes 1009 above it", async () => {
    const padTo = (size: number): Uint8Array => {
      const base = { type: "join", senderId: "alice:big", peerMetadata: {}, supportedProtocolVersions: [RELAY_PROTOCOL_VERSION] };
      // A CBOR text string this long has a 5-byte header instead of the empty string's 1 byte.
      const overhead = encodeFrame({ ...base, pad: "" } as WireFrame).byteLength + 4;
      const frame = encodeFrame({ ...base, pad: "x".repeat(size - overhead) } as WireFrame);
      expect(frame.byteLength).toBe(size);
      return frame;
    };
    const atBound = client(alice);
    await waitFor(() => atBound.opened, "open");
    atBound.send(padTo(MAX_RELAY_MESSAGE_BYTES));
    await waitFor(() => atBound.frames.some((f) => f.type === "peer") || atBound.closed !== null, "answer");
    expect(atBound.closed).toBeNull();

    const above = client(alice);
    await waitFor(() => above.opened, "open");
    above.send(padTo(MAX_RELAY_MESSAGE_BYTES + 1));
    await waitFor(() => above.closed !== null, "close");
    expect(above.closed!.code).toBe(CLOSE_CODES.tooBig);
    expect(above.closed!.reason).toBe(`message larger than ${MAX_RELAY_MESSAGE_BYTES} bytes, the most this relay takes`);
    await relayStillServes();
  });

  it("answers doc-unavailable for a document it does not have", async () => {
    const c = client(alice);
    await c.join("alice:laptop");
    const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
    c.send(requestFrame("alice:laptop", documentId));
    await waitFor(() => c.frames.some((f) => f.type === "doc-unavailable"), "doc-unavailable");
    expect(c.frames.find((f) => f.type === "doc-unavailable")).toMatchObject({
      documentId,
      targetId: "alice:laptop",
      senderId: RELAY_PEER_ID,
    });
    expect(c.closed).toBeNull();
  });

  it("closes a socket that never joins", async () => {
    await relay.close();
    relay = await startRelay({ dataDir: join(dir.path, "relay"), joinTimeoutMs: 100 });
    const c = client(alice);
    await waitFor(() => c.closed !== null, "join timeout");
    expect(c.closed?.code).toBe(CLOSE_CODES.joinTimeout);
  });
});
