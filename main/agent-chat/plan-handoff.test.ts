/**
 * A plan handoff over the real document service and this device's real database (issue #27): the new plan is listed
 * with the brief above the chat plan's Markdown, shared exactly when the chat's plan is; the same key is the same plan (one after another, at once, and after
 * a restart at each point in the middle: reserved only, stored but not listed, made but not committed); a handoff whose plan
 * was deleted is not made again; the title and brief bounds at their edges; a plan too large and a database that
 * refuses writes answer typed refusals and list nothing.
 */
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl, type DocumentId } from "@automerge/automerge-repo";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { MAX_DOCUMENT_MARKDOWN_BYTES, MAX_HANDOFF_BRIEF_BYTES, MAX_TITLE_CHARS } from "../../shared/limits.js";
import { PLAN_DOCUMENT_SCHEMA_VERSION } from "../../shared/schema/plan-document.js";
import { fixturesClosedAfterEach, makeFixture, MemoryStorage, TEST_RELAY_URL, type Fixture } from "../documents/test-fixture.js";
import { readOnlyDatabase } from "../store/full-database.js";
import { commitHandoff, findHandoff, reserveHandoff } from "../store/plan-handoffs.js";
import { PlanHandoff, personHandoffKey, toolHandoffKey } from "./plan-handoff.js";

const open = fixturesClosedAfterEach();

function handoffOf(fx: Fixture): PlanHandoff {
  return new PlanHandoff({
    records: { reserve: (reservation) => reserveHandoff(fx.db, reservation), commit: (chatPlanId, key, at) => commitHandoff(fx.db, chatPlanId, key, at) },
    plans: {
      markdown: async (id) => (await fx.service.getContent(id)).markdown,
      isShared: (id) => fx.service.isShared(id),
      openOrCreateHandoffPlan: (start) => fx.service.openOrCreateHandoffPlan(start),
    },
    now: () => fx.clock.now,
  });
}

async function withChat(options: Parameters<typeof open>[0] = {}) {
  const fx = await open({ holdsFromStorage: true, ...options });
  const chat = await fx.service.createDocument({ title: "Chat draft", markdown: "# Launch\n\n- Pick a date\n" });
  return { fx, chatPlanId: chat.id as DocumentId, handoff: handoffOf(fx) };
}

const listedIds = async (fx: Fixture) => (await fx.service.listDocuments()).map((d) => d.id).sort();
const newId = () => parseAutomergeUrl(generateAutomergeUrl()).documentId;

/** A whole plan's bytes, as a handoff imports them. */
function planBytes(title: string, text: string): Uint8Array {
  const now = Date.UTC(2026, 0, 1);
  return A.save(
    A.change(A.init<Record<string, unknown>>(), (d) => {
      Object.assign(d, { schemaVersion: PLAN_DOCUMENT_SCHEMA_VERSION, kind: "plan", title, text, repository: null, createdVia: "app", provenance: null, brief: null, archivedAt: null, createdAt: now, updatedAt: now, authors: {} });
    }),
  );
}

describe("a plan handoff", () => {
  it("makes a listed plan of the brief then the chat's plan; the same key is the same plan, another key another", async () => {
    const { fx, chatPlanId, handoff } = await withChat();
    const key = toolHandoffKey("turn-1", { title: "Launch plan", brief: "For the spring launch." });
    const made = await handoff.create({ chatPlanId, key, title: "  Launch plan ", brief: "For the spring launch.\n", by: { agent: "Scout" } });
    expect(made.title).toBe("Launch plan");
    expect((await fx.service.getContent(made.documentId)).markdown).toBe("For the spring launch.\n\n# Launch\n\n- Pick a date\n");
    expect(await listedIds(fx)).toEqual([chatPlanId, made.documentId].sort());
    // The chat's own plan stays as it was.
    expect((await fx.service.getContent(chatPlanId)).markdown).toBe("# Launch\n\n- Pick a date\n");
    expect(findHandoff(fx.db, chatPlanId, key)).toMatchObject({ documentId: made.documentId, committedAt: expect.any(Number) });

    expect(await handoff.create({ chatPlanId, key, title: "Launch plan", brief: "For the spring launch." })).toEqual(made);
    const [a, b] = await Promise.all([
      handoff.create({ chatPlanId, key: personHandoffKey("device:d", "r-1"), title: "Other", brief: "b" }),
      handoff.create({ chatPlanId, key: personHandoffKey("device:d", "r-1"), title: "Other", brief: "b" }),
    ]);
    expect(a).toEqual(b);
    expect(a.documentId).not.toBe(made.documentId);
    expect(await listedIds(fx)).toEqual([chatPlanId, made.documentId, a.documentId].sort());
  });

  it("makes the reserved plan after a restart at each point in the middle, never a second one", async () => {
    const storage = new MemoryStorage();
    const dir = mkdtempSync(join(tmpdir(), "chopin-handoff-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const firstFx = await makeFixture({ storage, dir, holdsFromStorage: true });
    const chatPlanId = (await firstFx.service.createDocument({ title: "Chat draft", markdown: "# Launch\n\n- Pick a date\n" })).id as DocumentId;
    const first = { fx: firstFx };
    // 1. Reserved, then the app stopped before the plan was made.
    const reservedOnly = newId();
    reserveHandoff(first.fx.db, { chatPlanId, key: "k-reserved", documentId: reservedOnly, at: 1 });
    // 2. The plan stored whole, then the app stopped before it was listed.
    const storedOnly = newId();
    reserveHandoff(first.fx.db, { chatPlanId, key: "k-stored", documentId: storedOnly, at: 1 });
    first.fx.repo.import(planBytes("Stored", "s\n\n# Launch\n\n- Pick a date\n"), { docId: storedOnly as DocumentId });
    await first.fx.repo.flush([storedOnly as DocumentId]);
    // 3. Made and listed, not yet committed.
    const madeOnly = newId();
    reserveHandoff(first.fx.db, { chatPlanId, key: "k-made", documentId: madeOnly, at: 1 });
    await first.fx.service.openOrCreateHandoffPlan({ documentId: madeOnly as DocumentId, title: "Made", markdown: "x", shared: false, mayCreate: true });
    await first.fx.close();

    const fx = await open({ storage, dir, holdsFromStorage: true });
    const handoff = handoffOf(fx);
    const before = await listedIds(fx);
    expect(before).toEqual([chatPlanId, madeOnly].sort());
    expect((await handoff.create({ chatPlanId, key: "k-reserved", title: "Reserved", brief: "r" })).documentId).toBe(reservedOnly);
    expect((await handoff.create({ chatPlanId, key: "k-stored", title: "Stored", brief: "s" })).documentId).toBe(storedOnly);
    expect((await handoff.create({ chatPlanId, key: "k-made", title: "Made", brief: "m" })).documentId).toBe(madeOnly);
    expect(await listedIds(fx)).toEqual([chatPlanId, reservedOnly, storedOnly, madeOnly].sort());
    expect((await fx.service.getContent(reservedOnly)).markdown).toBe("r\n\n# Launch\n\n- Pick a date\n");
    expect((await fx.service.getContent(storedOnly)).markdown).toBe("s\n\n# Launch\n\n- Pick a date\n");
  });

  it("shares the new plan with the team when the chat's plan is shared, and keeps it on this device when not", async () => {
    const fx = await open({ holdsFromStorage: true, relayUrl: TEST_RELAY_URL });
    const handoff = handoffOf(fx);
    const teamChat = (await fx.service.createDocument({ title: "Team chat", markdown: "# T", shared: true })).id as DocumentId;
    const deviceChat = (await fx.service.createDocument({ title: "Device chat", markdown: "# D", shared: false })).id as DocumentId;
    const fromTeam = await handoff.create({ chatPlanId: teamChat, key: "k", title: "From the team's chat", brief: "b" });
    const fromDevice = await handoff.create({ chatPlanId: deviceChat, key: "k", title: "From this device's chat", brief: "b" });
    expect(fx.service.isShared(fromTeam.documentId)).toBe(true);
    expect(fx.service.isShared(fromDevice.documentId)).toBe(false);
  });

  it("does not make again a handed-off plan that was deleted since", async () => {
    const { fx, chatPlanId, handoff } = await withChat();
    const made = await handoff.create({ chatPlanId, key: "k", title: "Gone soon", brief: "b" });
    await fx.service.archiveDocument(made.documentId);
    await fx.service.deleteDocument(made.documentId);
    await expect(handoff.create({ chatPlanId, key: "k", title: "Gone soon", brief: "b" })).rejects.toMatchObject({ code: "not-found" });
    expect(await listedIds(fx)).toEqual([chatPlanId]);
  });

  it("takes a title and a brief at their bounds and refuses one past them, naming the field and making nothing", async () => {
    const { fx, chatPlanId, handoff } = await withChat();
    const atTitle = await handoff.create({ chatPlanId, key: "t-at", title: "t".repeat(MAX_TITLE_CHARS), brief: "b" });
    expect(atTitle.title).toHaveLength(MAX_TITLE_CHARS);
    await expect(handoff.create({ chatPlanId, key: "t-past", title: "t".repeat(MAX_TITLE_CHARS + 1), brief: "b" })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^title:/) });
    const atBrief = await handoff.create({ chatPlanId, key: "b-at", title: "Brief", brief: "é".repeat(MAX_HANDOFF_BRIEF_BYTES / 2) });
    expect((await fx.service.getContent(atBrief.documentId)).markdown.startsWith("é".repeat(MAX_HANDOFF_BRIEF_BYTES / 2))).toBe(true);
    await expect(handoff.create({ chatPlanId, key: "b-past", title: "Brief", brief: `${"é".repeat(MAX_HANDOFF_BRIEF_BYTES / 2)}x` })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^brief:/) });
    await expect(handoff.create({ chatPlanId, key: "b-empty", title: "Brief", brief: "  " })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^brief:/) });
    expect(await listedIds(fx)).toEqual([chatPlanId, atTitle.documentId, atBrief.documentId].sort());
    expect(findHandoff(fx.db, chatPlanId, "t-past")).toBeNull();
  });

  it("refuses a plan too large for a document and a database that takes no writes, listing nothing", async () => {
    const { fx, chatPlanId, handoff } = await withChat();
    const chat = await fx.service.getDocument(chatPlanId);
    await fx.service.updateMarkdown(chatPlanId, chat.revision, "x".repeat(MAX_DOCUMENT_MARKDOWN_BYTES - 2));
    await expect(handoff.create({ chatPlanId, key: "big", title: "Big", brief: "A brief that does not fit." })).rejects.toMatchObject({ code: "too-large" });
    expect(await listedIds(fx)).toEqual([chatPlanId]);
    const reserved = findHandoff(fx.db, chatPlanId, "big")!;
    expect(fx.repo.handles[reserved.documentId as DocumentId]).toBeUndefined();

    const readOnly = readOnlyDatabase(fx.db);
    await expect(handoff.create({ chatPlanId, key: "ro", title: "Read-only", brief: "b" })).rejects.toMatchObject({ code: "storage-failure", message: expect.stringMatching(/could not record the handoff/) });
    readOnly.writable();
    expect(await listedIds(fx)).toEqual([chatPlanId]);
  });
});
