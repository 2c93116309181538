/**
 * Issue #23, tried as a hostile or careless teammate would, with real relays and real app cores on 127.0.0.1: what a
 * relay received is read back from the relay (every frame a member's socket delivered, its stored chunks) and as
 * another member, never only from the core's own state.
 * 1. a plan a teammate deleted from the team keeps nothing of its later edits going to the relay;
 * 2. a member who writes another member's private plan id into the team's list gets nothing of it;
 * 3. a relay switch carries nothing of the old team across;
 * 4. a GitHub sign-in goes only to a relay that asks for it, over wss:// or to this computer;
 * 5. a relay token never goes to an address it was not given for;
 * 6. a deleted plan is refused by the relay to every member, present and future.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import type { DocumentId } from "@automerge/automerge-repo";
import { afterEach, describe, expect, it } from "vitest";
import type { WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { defaultFixtures } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub } from "../../test-support/fake-github/server.js";
import { startClient, tempDir, type TestClient } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import type { AppCore } from "./types.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Reached {
  user: string;
  type: string;
  documentId?: string;
}

/** A relay that records every frame its members' sockets delivered. */
async function recordingRelay(prefix: string, users: string[]): Promise<{ relay: RunningRelay; tokens: Record<string, string>; reached: Reached[] }> {
  const dir = tempDir(prefix);
  cleanups.push(() => dir.remove());
  const reached: Reached[] = [];
  const relay = await startRelay({
    dataDir: join(dir.path, "relay"),
    onFrame: (user, frame) => reached.push({ user, type: frame.type, ...(frame.documentId ? { documentId: frame.documentId } : {}) }),
  });
  cleanups.push(() => relay.close());
  const tokens = Object.fromEntries(users.map((user) => [user, relay.users.add(user).token]));
  return { relay, tokens, reached };
}

async function core(prefix: string, relay?: { url: string; token: string }, github?: { url: string; clientId: string }): Promise<AppCore> {
  const dir = tempDir(prefix);
  cleanups.push(() => dir.remove());
  const c = await createAppCore({
    dataDir: dir.path,
    mcpPort: 0,
    relayUrl: relay?.url,
    relayToken: relay?.token,
    ...(github ? { githubClientId: github.clientId, githubApiUrl: github.url, githubWebUrl: github.url } : {}),
  });
  cleanups.push(() => c.close());
  return c;
}

/** Another member's device: a plain Repo on the relay, as any client of the wire protocol. */
function member(relay: RunningRelay, token: string, peerId: string): TestClient {
  const dir = tempDir("chopin-privacy-member-");
  const client = startClient({ url: relay.url, token, peerId, dbFile: join(dir.path, "member.sqlite") });
  cleanups.push(() => dir.remove(), () => client.close());
  return client;
}

/** What a member gets when asking the relay for `id`: its text, or null when the relay says it has none for them. */
async function readAsMember(client: TestClient, id: string): Promise<string | null> {
  try {
    const handle = await client.repo.find<{ text: string }>(id as DocumentId);
    return handle.doc()?.text ?? null;
  } catch {
    return null;
  }
}

/** The text of `id` as the relay stored it (every chunk it holds), or null when it stores none. */
async function relayStoredText(relay: RunningRelay, id: string): Promise<string | null> {
  await relay.repo.flush().catch(() => undefined);
  // Keys are the storage key parts joined by U+001F (shared/node/sqlite-storage-adapter.ts).
  const rows = relay.db.prepare("SELECT data FROM automerge_chunks WHERE key LIKE ?").all(`${id}\u001f%`) as { data: Uint8Array }[];
  let doc = A.init<{ text?: string }>();
  let any = false;
  for (const { data } of rows) {
    try {
      doc = A.loadIncremental(doc, data);
      any = true;
    } catch {
      // a sync-state chunk, not document data
    }
  }
  return any ? (doc.text ?? null) : null;
}

/** Replaces a plan's body in a core's replica, as a window's typing arrives there. */
async function type(c: AppCore, id: string, text: string): Promise<void> {
  const handle = await c.repo.find<{ text: string }>(id as DocumentId);
  handle.change((d) => A.updateText(d, ["text"], text));
}

const framesOf = (reached: Reached[], from: number, user: string, documentId: string) =>
  reached.slice(from).filter((f) => f.user === user && f.documentId === documentId && f.type !== "doc-unavailable");

/**
 * Waits until a fast-path batch of `control`, edited last, reached the relay from `user` since `from`: one socket
 * carries a core's frames in order, so a batch of a plan edited just before it would have arrived first.
 */
async function controlArrived(reached: Reached[], from: number, user: string, control: string): Promise<void> {
  await waitFor(() => framesOf(reached, from, user, control).some((f) => f.type === "changes"), `${user}'s control edit reached the relay`, 30_000);
}

/** Waits until the relay stores `text` for `id` and `c` has nothing waiting for it: quiet before a measured step. */
async function settled(c: AppCore, relay: RunningRelay, id: string, text: string): Promise<void> {
  await waitFor(async () => (await relayStoredText(relay, id)) === text, "the relay stores the control plan", 30_000);
  await waitFor(async () => (await c.api.getSyncStatus()).pendingChanges === 0, "nothing waiting", 30_000);
}

describe("private stays private (issue #23)", () => {
  it("1, 6: a plan a teammate deleted sends nothing more from the device that keeps it, and the relay refuses it to every member, present and future", { timeout: 120_000 }, async () => {
    const { relay, tokens, reached } = await recordingRelay("chopin-privacy-1-", ["alice", "bob"]);
    const a = await core("chopin-privacy-1a-", { url: relay.url, token: tokens.alice! });
    const b = await core("chopin-privacy-1b-", { url: relay.url, token: tokens.bob! });
    const plan = await a.api.createDocument({ title: "Team plan", markdown: "agreed words" });
    const control = await b.api.createDocument({ title: "Bob's control", markdown: "control" });
    await waitFor(async () => (await b.api.listDocuments()).some((d) => d.id === plan.id), "B lists the plan", 30_000);
    await waitFor(async () => (await b.api.getDocument(plan.id)).title === "Team plan", "B holds the plan", 30_000);

    await a.api.archiveDocument(plan.id);
    await a.api.deleteDocument(plan.id);
    await waitFor(async () => (await b.api.getDocument(plan.id)).shared === false, "B's copy is private", 30_000);
    expect((await b.api.getDocument(plan.id)).leftTeamAt).toBeTypeOf("number");
    await settled(b, relay, control.id, "control");
    const from = reached.length;

    await type(b, plan.id, "agreed words, and bob's words after the delete");
    await type(b, control.id, "control, edited after");
    await controlArrived(reached, from, "bob", control.id);
    expect(framesOf(reached, from, "bob", plan.id)).toEqual([]);

    // Read back from the relay: its stored copy has none of it; a member's device and a member added later are refused.
    expect(await relayStoredText(relay, plan.id)).not.toContain("after the delete");
    const alicesOtherDevice = member(relay, tokens.alice!, "alice:tablet");
    expect(await readAsMember(alicesOtherDevice, plan.id)).toBeNull();
    const dana = member(relay, relay.users.add("dana").token, "dana:laptop");
    expect(await readAsMember(dana, plan.id)).toBeNull();
    expect(relay.deleted.has(plan.id)).toBe(true);
  });

  it("2: a member who writes another member's private plan into the team's list gets nothing of it, and its owner's list keeps it private under its own title", { timeout: 120_000 }, async () => {
    const { relay, tokens, reached } = await recordingRelay("chopin-privacy-2-", ["bob", "mallory"]);
    const b = await core("chopin-privacy-2b-", { url: relay.url, token: tokens.bob! });
    const secret = await b.api.createDocument({ title: "Diary", markdown: "bob's private words", shared: false });
    const control = await b.api.createDocument({ title: "Bob's control", markdown: "control" });
    await waitFor(async () => (await b.api.getSyncStatus()).state === "connected", "B connected", 30_000);

    // Mallory knows the id (it leaked through a link) and lists it on the team's list under a title she chose.
    const mallory = member(relay, tokens.mallory!, "mallory:laptop");
    const team = await mallory.repo.find<WorkspaceIndex>(relay.teamIndexDocumentId);
    team.change((d) => {
      d.documents[secret.id] = { title: "Now ours", createdVia: "app", archivedAt: null, createdAt: 1, updatedAt: Date.UTC(2030, 0, 1) };
    });
    await waitFor(async () => (await b.api.getDocument(secret.id)).listedByTeammate === true, "B heard a teammate listed it", 30_000);
    await settled(b, relay, control.id, "control");

    const from = reached.length;
    await type(b, secret.id, "bob's private words, still private");
    await b.api.renameDocument(secret.id, "Dear diary");
    await type(b, control.id, "control, edited after");
    await controlArrived(reached, from, "bob", control.id);
    // Nothing of the plan ever reached the relay from Bob's device, before or after the entry.
    expect(framesOf(reached, 0, "bob", secret.id)).toEqual([]);
    expect(await relayStoredText(relay, secret.id)).toBeNull();
    expect(await readAsMember(mallory, secret.id)).toBeNull();
    // The team's list kept Mallory's words, not Bob's title.
    await waitFor(() => team.doc()?.documents[secret.id]?.title === "Now ours", "the entry as Mallory wrote it");
    const listed = (await b.api.listDocuments()).find((d) => d.id === secret.id);
    expect(listed).toMatchObject({ title: "Dear diary", shared: false });
  });

  it("3: switching relays carries neither the old team's list nor its plans to the new relay", { timeout: 120_000 }, async () => {
    const first = await recordingRelay("chopin-privacy-3r1-", ["alice"]);
    const second = await recordingRelay("chopin-privacy-3r2-", ["alice", "olga"]);
    const a = await core("chopin-privacy-3a-", { url: first.relay.url, token: first.tokens.alice! });
    const old = await a.api.createDocument({ title: "First team's plan", markdown: "first team only" });
    await waitFor(async () => (await relayStoredText(first.relay, old.id))?.includes("first team only") === true, "the first relay holds it", 30_000);

    await a.api.updateSettings({ relayUrl: second.relay.url, relayToken: second.tokens.alice! });
    await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "A connected to the second relay", 30_000);
    const fresh = await a.api.createDocument({ title: "Second team's plan", markdown: "second team" });
    await settled(a, second.relay, fresh.id, "second team");
    const from = second.reached.length;
    await type(a, old.id, "first team only, edited after the switch");
    await type(a, fresh.id, "second team, edited after");
    await controlArrived(second.reached, from, "alice", fresh.id);
    const olga = member(second.relay, second.tokens.olga!, "olga:laptop");
    await waitFor(async () => (await readAsMember(olga, fresh.id)) === "second team, edited after", "the new team has its own plan", 30_000);

    // The new team's list names only its own plan; nothing of the old team's plan or list reached the new relay.
    const team = await olga.repo.find<WorkspaceIndex>(second.relay.teamIndexDocumentId);
    await waitFor(() => team.doc()?.documents[fresh.id] !== undefined, "the new team's list");
    expect(Object.keys(team.doc()!.documents)).toEqual([fresh.id]);
    expect(framesOf(second.reached, 0, "alice", old.id)).toEqual([]);
    expect(framesOf(second.reached, 0, "alice", first.relay.teamIndexDocumentId)).toEqual([]);
    expect(await relayStoredText(second.relay, old.id)).toBeNull();
    expect(await readAsMember(olga, old.id)).toBeNull();
  });

  it("4: a GitHub sign-in goes only to a relay that asks for GitHub admission, and never over plain ws:// to another host", { timeout: 120_000 }, async () => {
    const fixtures = defaultFixtures();
    const github = await startFakeGitHub({ fixtures });
    cleanups.push(() => github.close());
    // A listener that is no GitHub-admitting relay: it says it takes relay tokens only, and writes down every header.
    const plainRelay = await listener("127.0.0.1", ["relay-token"]);
    const a = await core("chopin-privacy-4a-", undefined, { url: github.url, clientId: fixtures.clientId });
    await a.api.updateSettings({ relayUrl: `ws://127.0.0.1:${plainRelay.port}` });
    const { deviceFlow } = await a.api.startSignIn();
    github.state.approveDevice(deviceFlow!.userCode, "alice");
    await waitFor(async () => (await a.api.getAuthState()).state === "signed-in", "A signed in to GitHub", 30_000);
    await waitFor(async () => (await a.api.getSyncStatus()).lastError?.message.includes("does not take GitHub sign-ins") === true, "A says why", 30_000);
    expect(plainRelay.requests.map((r) => r.path)).toContain("/v1/admission");
    expect(plainRelay.requests.filter((r) => r.authorization !== undefined)).toEqual([]);

    // A relay on another host over plain ws:// that claims GitHub admission: nothing is even asked there.
    const address = nonLoopbackAddress();
    if (address === null) return; // no network interface besides loopback: the ws:// case has no other host to reach
    const remote = await listener("0.0.0.0", ["relay-token", "github"]);
    await a.api.updateSettings({ relayUrl: `ws://${address}:${remote.port}` });
    await waitFor(async () => (await a.api.getSyncStatus()).lastError?.message.includes("only over an encrypted connection") === true, "A refuses the plain transport", 30_000);
    expect(remote.requests).toEqual([]);
  });

  it("5: a relay token never goes to an address it was not given for", { timeout: 120_000 }, async () => {
    const { relay, tokens } = await recordingRelay("chopin-privacy-5-", ["alice"]);
    const a = await core("chopin-privacy-5a-", { url: relay.url, token: tokens.alice! });
    await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "A connected", 30_000);
    const elsewhere = await listener("127.0.0.1", ["relay-token"]);
    const settings = await a.api.updateSettings({ relayUrl: `ws://127.0.0.1:${elsewhere.port}` });
    expect(settings.relayTokenSet).toBe(false);
    await waitFor(async () => (await a.api.getSyncStatus()).lastError?.message.includes("nothing to sign in") === true, "A has nothing to sign in with", 30_000);
    // Back to the first address: the token was forgotten, not kept aside for it.
    await a.api.updateSettings({ relayUrl: relay.url });
    expect((await a.api.getSettings()).relayTokenSet).toBe(false);
    expect(elsewhere.requests.filter((r) => r.authorization !== undefined)).toEqual([]);
    expect(elsewhere.requests.some((r) => r.upgrade)).toBe(false);
  });
});

interface Heard {
  path: string;
  authorization: string | undefined;
  upgrade: boolean;
}

/** An HTTP server that answers /v1/admission with `methods`, refuses the rest, and records what every request carried. */
async function listener(host: string, methods: string[]): Promise<{ port: number; requests: Heard[] }> {
  const requests: Heard[] = [];
  const note = (req: IncomingMessage, upgrade: boolean) =>
    requests.push({ path: new URL(req.url ?? "/", "http://x").pathname, authorization: req.headers.authorization, upgrade });
  const server: Server = createServer((req, res) => {
    note(req, false);
    if (req.url === "/v1/admission") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ methods }));
      return;
    }
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ code: "unauthorized", message: "no" }));
  });
  server.on("upgrade", (req, socket) => {
    note(req, true);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as { port: number }).port, requests };
}

/** An address of this machine that is not loopback, or null. */
function nonLoopbackAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (!a.internal && a.family === "IPv4") return a.address;
  }
  return null;
}
