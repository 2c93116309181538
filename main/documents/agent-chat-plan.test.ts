/**
 * An agent chat's own plan in the document service (issue #27): nothing exists before it is begun (the check makes no
 * handle), begun it opens like a plan at its derived id from the shared genesis, a second begin is the same plan, and
 * it never shows in the document list or its search, archived or not.
 */
import { next as A } from "@automerge/automerge";
import { afterEach, describe, expect, it } from "vitest";
import type { DocumentId } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { agentChatGenesis, agentChatIdOf, type AgentChatKey } from "../../shared/node/agent-chat-identity.js";
import { makeFixture, type Fixture } from "./test-fixture.js";

const fixtures: Fixture[] = [];
afterEach(async () => {
  for (const f of fixtures.splice(0)) await f.close();
});

const key: AgentChatKey = { scope: { kind: "device", deviceId: "device-1" }, agentId: "a".repeat(32), person: "device:device-1" };
const start = (over: Partial<AgentChatKey> = {}) => {
  const k = { ...key, ...over };
  return { documentId: agentChatIdOf(k), mark: { agentId: k.agentId, person: k.person }, genesis: () => agentChatGenesis(k), shared: false };
};

describe("an agent chat's plan", () => {
  it("does not exist before it is begun, and asking makes nothing", async () => {
    const fx = await makeFixture();
    fixtures.push(fx);
    const { documentId } = start();
    expect(fx.service.agentChatPlanExists(documentId)).toBe(false);
    expect(fx.repo.handles[documentId]).toBeUndefined();
    await expect(fx.service.getDocument(documentId)).rejects.toMatchObject({ code: "not-found" });
  });

  it("is begun at its derived id, opens like a plan, is the same plan when begun again, and is never listed or searched", async () => {
    const fx = await makeFixture();
    fixtures.push(fx);
    const ordinary = await fx.service.createDocument({ title: "Agent chat notes", markdown: "agent" });
    const begun = await fx.service.openOrBeginAgentChatPlan(start());
    expect(begun).toMatchObject({ id: start().documentId, title: "Agent chat", agentChat: { agentId: key.agentId, person: key.person } });
    expect(fx.service.agentChatPlanExists(start().documentId)).toBe(true);
    expect(await fx.service.getDocument(begun.id)).toMatchObject({ id: begun.id, agentChat: { agentId: key.agentId, person: key.person } });
    expect((await fx.service.openOrBeginAgentChatPlan(start())).revision).toBe(begun.revision);

    await fx.service.updateMarkdown(begun.id, begun.revision, "# Agent draft");
    expect((await fx.service.listDocuments()).map((d) => d.id)).toEqual([ordinary.id]);
    expect((await fx.service.listDocuments({ query: "agent" })).map((d) => d.id)).toEqual([ordinary.id]);
    expect(await fx.service.listDocuments({ archived: true })).toEqual([]);
  });

  it("refuses a plan at the id that is not that chat's, listing nothing", async () => {
    const fx = await makeFixture();
    fixtures.push(fx);
    const other = start({ person: "device:someone-else" });
    await expect(fx.service.openOrBeginAgentChatPlan({ ...start(), genesis: other.genesis })).rejects.toMatchObject({ code: "invalid-document" });
    expect(fx.service.agentChatPlanExists(start().documentId)).toBe(false);
    expect(await fx.service.listDocuments()).toEqual([]);
  });

  it("is changed only by its person: every write of a teammate's chat plan is refused 'forbidden' and changes nothing; theirs is marked so", async () => {
    const person = { key: "device:someone-else" };
    const fx = await makeFixture({ chatPerson: () => person.key });
    fixtures.push(fx);
    const begun = await fx.service.openOrBeginAgentChatPlan(start());
    expect(begun.teammatesChat).toBe(true);
    const forbidden = { code: "forbidden", message: expect.stringContaining("teammate's chat") };
    await expect(fx.service.renameDocument(begun.id, "Taken")).rejects.toMatchObject(forbidden);
    await expect(fx.service.updateMarkdown(begun.id, begun.revision, "# taken")).rejects.toMatchObject(forbidden);
    await expect(fx.service.archiveDocument(begun.id)).rejects.toMatchObject(forbidden);
    await expect(fx.service.setRepository(begun.id, { owner: "acme", name: "site" })).rejects.toMatchObject(forbidden);
    const [version] = await fx.service.listVersions(begun.id);
    await expect(fx.service.restoreVersion(begun.id, version!.id)).rejects.toMatchObject(forbidden);
    const bytes = A.save((await fx.repo.find<PlanDocument>(begun.id as DocumentId)).doc());
    await expect(fx.service.importDocument(bytes)).rejects.toMatchObject({ code: "forbidden" });
    expect(await fx.service.getDocument(begun.id)).toMatchObject({ revision: begun.revision, title: "Agent chat", archivedAt: null, repository: null });

    // Its person changes it as any plan of theirs, and sees no teammate's mark.
    person.key = key.person;
    expect((await fx.service.getDocument(begun.id)).teammatesChat).toBeUndefined();
    await expect(fx.service.renameDocument(begun.id, "Launch chat")).resolves.toMatchObject({ title: "Launch chat" });
  });
});
