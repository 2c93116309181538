/**
 * Who may relay presence under a window's id ("peer-..."): the core (user + peer id) that first relayed it, across
 * that core's reconnects, until nobody relayed it for RELAY_PRESENCE_SENDER_TTL_MS — never another core's socket,
 * even after the first one closed. Real sockets on 127.0.0.1 into a RelayServerAdapter with an injected clock; what
 * the adapter lets through is what it emits to the Repo.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Message, PeerId } from "@automerge/automerge-repo";
import { encode } from "cbor-x";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { RELAY_MAX_PRESENCE_SENDERS, RELAY_PRESENCE_SENDER_TTL_MS } from "./limits.js";
import { RELAY_PROTOCOL_VERSION, encodeFrame } from "../shared/sync-wire.js";
import { RelayServerAdapter } from "./server-adapter.js";
import { waitFor } from "../shared/wait-for.js";

const RELAY = "relay";
const DOCUMENT = "4NMNnkMhL8jXrdJ9jamS58PAVdXu";

let http: Server;
let wss: WebSocketServer;
let adapter: RelayServerAdapter;
let now: number;
/** Every presence frame the adapter let through, as "<session>><sender>". */
let relayed: string[];
const sockets: WebSocket[] = [];

beforeEach(async () => {
  now = 1_000_000;
  relayed = [];
  adapter = new RelayServerAdapter({ now: () => now });
  adapter.connect(RELAY as PeerId);
  adapter.on("message", (message: Message) => void (message.type === "ephemeral" && relayed.push(message.senderId)));
  wss = new WebSocketServer({ noServer: true });
  http = createServer();
  // The user a socket authenticated as is the request path (server.ts decides it from the token).
  http.on("upgrade", (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => adapter.accept(ws, { user: (req.url ?? "/").slice(1), tokenHash: "h" })),
  );
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
});

afterEach(async () => {
  adapter.disconnect();
  for (const ws of sockets.splice(0)) ws.terminate();
  wss.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

/** A core's socket: `user`'s app joined as `peerId`. */
async function core(user: string, peerId: string): Promise<{ ws: WebSocket; presence(sender: string): void }> {
  const ws = new WebSocket(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/${user}`);
  sockets.push(ws);
  ws.on("error", () => undefined);
  let peerFrame = false;
  ws.on("message", () => (peerFrame = true));
  await waitFor(() => ws.readyState === WebSocket.OPEN, "socket open");
  ws.send(encodeFrame({ type: "join", senderId: peerId, peerMetadata: {}, supportedProtocolVersions: [RELAY_PROTOCOL_VERSION] }));
  await waitFor(() => peerFrame, "the relay answers the join");
  let count = 0;
  return {
    ws,
    presence(sender) {
      ws.send(
        encodeFrame({ type: "ephemeral", senderId: sender, targetId: RELAY, documentId: DOCUMENT, data: encode({ user: { name: user } }), count: ++count, sessionId: `${peerId}-${sender}` }),
      );
    },
  };
}

/** Sends `sender` and then a control id the core surely owns; once the control is through, `sender` was decided. */
async function relays(c: Awaited<ReturnType<typeof core>>, peerId: string, sender: string): Promise<boolean> {
  const control = `${peerId}/control-${relayed.length}`;
  const before = relayed.length;
  c.presence(sender);
  c.presence(control);
  await waitFor(() => relayed.some((s) => s.endsWith(`>${control}`)), `the control frame from ${peerId}`);
  return relayed.slice(before).some((s) => s.endsWith(`>${sender}`));
}

async function close(c: Awaited<ReturnType<typeof core>>): Promise<void> {
  const before = adapter.connectionCount;
  c.ws.close();
  await waitFor(() => adapter.connectionCount === before - 1, "the relay forgets the socket");
}

describe("presence sender ownership", () => {
  it("a window id stays its core's after that core's socket closes: another core cannot reuse it, the same core's next socket can", async () => {
    const alice = await core("alice", "alice:laptop");
    expect(await relays(alice, "alice:laptop", "peer-1x2y3z")).toBe(true);
    await close(alice);

    const mallory = await core("mallory", "mallory:box");
    expect(await relays(mallory, "mallory:box", "peer-1x2y3z")).toBe(false);
    // Another device of the same user is another core: not its id either.
    const phone = await core("alice", "alice:phone");
    expect(await relays(phone, "alice:phone", "peer-1x2y3z")).toBe(false);

    // Alice's core reconnects (a new socket, the same peer id): its window goes on showing presence.
    const again = await core("alice", "alice:laptop");
    expect(await relays(again, "alice:laptop", "peer-1x2y3z")).toBe(true);
    // ...and is still the only one: mallory is refused while alice's new socket is open, too.
    expect(await relays(mallory, "mallory:box", "peer-1x2y3z")).toBe(false);
  });

  it("the binding lapses RELAY_PRESENCE_SENDER_TTL_MS after the id was last relayed, not a millisecond sooner", async () => {
    const alice = await core("alice", "alice:laptop");
    expect(await relays(alice, "alice:laptop", "peer-1x2y3z")).toBe(true);
    // Relaying it again keeps it: the lapse counts from the last frame.
    now += RELAY_PRESENCE_SENDER_TTL_MS - 1;
    expect(await relays(alice, "alice:laptop", "peer-1x2y3z")).toBe(true);
    const lastRelayed = now;
    await close(alice);

    const bob = await core("bob", "bob:desk");
    now = lastRelayed + RELAY_PRESENCE_SENDER_TTL_MS - 1;
    expect(await relays(bob, "bob:desk", "peer-1x2y3z")).toBe(false);
    now = lastRelayed + RELAY_PRESENCE_SENDER_TTL_MS;
    expect(await relays(bob, "bob:desk", "peer-1x2y3z")).toBe(true);
  });

  it("keeps at most RELAY_MAX_PRESENCE_SENDERS bindings: at the bound the oldest still holds, one more and it is forgotten", async () => {
    const alice = await core("alice", "alice:laptop");
    // Two bindings: the id under test (the oldest) and relays()'s control id.
    expect(await relays(alice, "alice:laptop", "peer-first")).toBe(true);
    const fill = RELAY_MAX_PRESENCE_SENDERS - 2;
    for (let i = 0; i < fill; i++) alice.presence(`peer-fill-${i}`);
    await waitFor(() => relayed.some((s) => s.endsWith(`>peer-fill-${fill - 1}`)), "every filler relayed");
    // Exactly at the bound: nothing was forgotten, so bob cannot take alice's id...
    const bob = await core("bob", "bob:desk");
    expect(await relays(bob, "bob:desk", "peer-first")).toBe(false);
    // ...but that check's control id was one binding more, which made room by forgetting the oldest: "peer-first".
    expect(await relays(bob, "bob:desk", "peer-first")).toBe(true);
  });
});
