/**
 * An agent chat's own plan in the document service (issue #27): nothing exists before it is begun (the check makes no
 * handle), begun it opens like a plan at its derived id from the shared genesis, a second begin is the same plan, and
 * it never shows in the document list or its search, archived or not.
 */
import { afterEach, describe, expect, it } from "vitest";
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
});
