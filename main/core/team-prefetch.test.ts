/**
 * A teammate's shared plan is fetched onto this device in the background as soon as the team's list names it, so it
 * opens with the relay gone (data-integrity audit: it was listed but "not found" offline until someone had opened it).
 */
import { join } from "node:path";
import { next as A } from "@automerge/automerge";
import type { AnyDocumentId, DocumentId } from "@automerge/automerge-repo";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { startRelay, type RunningRelay } from "../../sync-relay/server.js";
import { LOCAL_DB_FILE } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";
import type { AppCore } from "./types.js";
import { waitFor } from "../../shared/wait-for.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function core(dataDir: string, relay: { url: string; token: string }): Promise<AppCore> {
  const c = await createAppCore({ dataDir, mcpPort: 0, relayUrl: relay.url, relayToken: relay.token });
  cleanups.push(() => c.close());
  return c;
}

/** Whether the core's storage in `dataDir` holds chunks of the document (read beside the running core, WAL). */
function stored(dataDir: string, id: string): boolean {
  const db = new Database(join(dataDir, LOCAL_DB_FILE), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM automerge_chunks WHERE key LIKE ?").get(`${id}\u001f%`) as { n: number }).n > 0;
  } finally {
    db.close();
  }
}

/** A relay and two connected cores, A (alice) and B (bob); the relay can be closed mid-test. */
async function team() {
  const relayDir = tempDir("chopin-prefetch-relay-");
  cleanups.push(() => relayDir.remove());
  const relay: RunningRelay = await startRelay({ dataDir: relayDir.path, port: 0 });
  let relayOpen = true;
  cleanups.push(() => (relayOpen ? relay.close() : undefined));
  const [dirA, dirB] = [tempDir("chopin-prefetch-a-"), tempDir("chopin-prefetch-b-")];
  cleanups.push(() => dirA.remove(), () => dirB.remove());
  const a = await core(dirA.path, { url: relay.url, token: relay.users.add("alice").token });
  const b = await core(dirB.path, { url: relay.url, token: relay.users.add("bob").token });
  await waitFor(async () => (await a.api.getSyncStatus()).state === "connected", "A connected");
  const closeRelay = async () => {
    await relay.close();
    relayOpen = false;
  };
  return { a, b, dirB, closeRelay };
}

describe("team prefetch", () => {
  it("stores a teammate's plans nobody here opened, and they open with the relay gone", { timeout: 120_000 }, async () => {
    const { a, b, dirB, closeRelay } = await team();

    const plans: Awaited<ReturnType<AppCore["api"]["createDocument"]>>[] = [];
    for (const title of ["First", "Second", "Third"]) plans.push(await a.api.createDocument({ title, markdown: `# ${title}\n\n${title} words` }));
    await waitFor(() => plans.every((p) => stored(dirB.path, p.id)), "B holds every plan without opening one", 60_000);
    // Stored, then let go: a loaded plan costs ~2 MB of Automerge memory, and B uses none of them (plan-release.ts).
    await waitFor(() => plans.every((p) => b.repo.handles[p.id as DocumentId] === undefined), "B let go of every prefetched plan");
    for (const plan of plans) expect((await b.api.openSnapshot(plan.id))?.title).toBe(plan.title);

    await closeRelay();
    await waitFor(async () => (await b.api.getSyncStatus()).state !== "connected", "B offline");
    for (const plan of plans) {
      const read = await b.api.getDocument(plan.id);
      expect(read.title).toBe(plan.title);
    }
  });

  it("a plan let go after prefetch still takes a teammate's later edits, then opens with them", { timeout: 120_000 }, async () => {
    const { a, b, dirB, closeRelay } = await team();
    const plan = await a.api.createDocument({ title: "Later", markdown: "first words" });
    await waitFor(() => stored(dirB.path, plan.id) && b.repo.handles[plan.id as DocumentId] === undefined, "B stored the plan and let go of it", 60_000);

    // Typed on A as a window's edits arrive in its core: each a change to the plan's text.
    const handle = await a.repo.find<{ text: string }>(plan.id as AnyDocumentId);
    for (let i = 1; i <= 3; i++) handle.change((d) => A.splice(d, ["text"], d.text.length, 0, `\nedit ${i}`));
    // Without anyone here opening it: its snapshot (what search and a first paint show) follows the teammate.
    await waitFor(async () => (await b.api.openSnapshot(plan.id))?.markdown.endsWith("edit 3") === true, "B has the teammate's later edits", 60_000);
    expect((await b.api.openSnapshot(plan.id))?.markdown).toBe("first words\nedit 1\nedit 2\nedit 3");

    await closeRelay();
    await waitFor(async () => (await b.api.getSyncStatus()).state !== "connected", "B offline");
    const opened = await b.repo.find<{ text: string }>(plan.id as AnyDocumentId);
    expect(opened.doc().text).toBe("first words\nedit 1\nedit 2\nedit 3");
  });
});
