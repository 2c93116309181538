/**
 * The relay's table of agent chats over real HTTP (a relay per test, relay-token users): register and list, the
 * constraint under concurrent registrations, who may register what, and bad bodies answered with typed 4xx while the
 * relay keeps serving. GitHub identities' rule is checked on registrationRefusal directly (a GitHub sign-in through a
 * real relay registers in main/agent-chat/agent-chat-relay.test.ts).
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { agentChatIdOf } from "../shared/node/agent-chat-identity.js";
import { agentStarsIdOf } from "../shared/node/agent-stars-identity.js";
import { AGENT_CHAT_TABLE_SQL, AgentChatTable } from "../shared/node/agent-chat-table.js";
import { MAX_AGENT_CHAT_PERSON_CHARS, MAX_AGENT_ID_CHARS } from "../shared/limits.js";
import { registrationRefusal } from "./agent-chat-routes.js";
import { RELAY_MAX_AGENT_CHAT_BODY_BYTES } from "./limits.js";
import { useTestRelay } from "./test-relay.js";

const t = useTestRelay("agent-chats-", ["alice", "bob"]);

const planOf = (agentId: string, person: string) => agentChatIdOf({ scope: { kind: "team", teamIndexId: "t" }, agentId, person });

async function call(token: string | null, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${t.relay.httpUrl}/v1/agent-chats`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const chat = (agentId: string, person: string, planId: string = planOf(agentId, person)) => ({ agentId, person, planId });

describe("the relay's table of agent chats", () => {
  it("registers a member's chat once (the same triple again is the same row), lists the team's, and refuses a second plan for a pair 409", async () => {
    const scout = chat("scout", "device:alice-laptop");
    const first = await call(t.tokens.alice, "POST", scout);
    expect(first).toMatchObject({ status: 200, body: { created: true, chat: { ...scout, registeredBy: "alice" } } });
    expect(await call(t.tokens.alice, "POST", scout)).toMatchObject({ status: 200, body: { created: false, chat: first.body.chat } });
    const other = await call(t.tokens.alice, "POST", { ...scout, planId: planOf("other", "device:alice-laptop") });
    expect(other).toMatchObject({ status: 409, body: { code: "idempotency-conflict", details: { planId: scout.planId } } });
    // A plan already another pair's is refused too.
    expect(await call(t.tokens.alice, "POST", { ...scout, agentId: "planner" })).toMatchObject({ status: 409, body: { code: "idempotency-conflict" } });
    await call(t.tokens.bob, "POST", chat("scout", "device:bob-desktop"));
    // Every member lists the whole team's chats.
    const listed = await call(t.tokens.bob, "GET");
    expect(listed.status).toBe(200);
    expect((listed.body.chats as { person: string; registeredBy: string }[]).map((c) => [c.person, c.registeredBy])).toEqual([
      ["device:alice-laptop", "alice"],
      ["device:bob-desktop", "bob"],
    ]);
    // Kept across a restart of the relay on its data (the table is in relay.sqlite).
    await t.reopen({});
    expect(((await call(t.tokens.alice, "GET")).body.chats as unknown[]).length).toBe(2);
  });

  it("gives one plan to a pair registered by many requests at once: the constraint decides, every other is 409", async () => {
    const person = "device:alice-laptop";
    const plans = Array.from({ length: 8 }, (_, i) => planOf(`agent-${i}`, person));
    const outcomes = await Promise.all(plans.map((planId) => call(t.tokens.alice, "POST", { agentId: "scout", person, planId })));
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === 409 && o.body.code === "idempotency-conflict")).toHaveLength(7);
    const same = await Promise.all(Array.from({ length: 8 }, () => call(t.tokens.alice, "POST", chat("planner", person))));
    expect(same.map((o) => o.status)).toEqual(Array(8).fill(200));
    expect(same.filter((o) => o.body.created === true)).toHaveLength(1);
    expect(((await call(t.tokens.alice, "GET")).body.chats as unknown[]).length).toBe(2);
  });

  it("lets only members register or list; a device's chats belong to the member who first registered one; a relay token registers no GitHub user's", async () => {
    expect(await call(null, "GET")).toMatchObject({ status: 401, body: { code: "unauthorized" } });
    expect(await call("not-a-token", "POST", chat("scout", "device:x"))).toMatchObject({ status: 401 });
    t.relay.users.revoke("bob");
    expect(await call(t.tokens.bob, "GET")).toMatchObject({ status: 401 });
    await call(t.tokens.alice, "POST", chat("scout", "device:alice-laptop"));
    // Another member may not name a plan for Alice's device, not even the right one.
    const dave = t.relay.users.add("dave").token;
    expect(await call(dave, "POST", chat("planner", "device:alice-laptop"))).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await call(t.tokens.alice, "POST", chat("scout", "github:alice"))).toMatchObject({ status: 403, body: { code: "forbidden", message: expect.stringContaining("GitHub") } });
    expect(((await call(t.tokens.alice, "GET")).body.chats as unknown[]).length).toBe(1);
  });

  it("answers bad bodies with typed 4xx and keeps serving; field bounds are taken at their edge and refused past it", async () => {
    const alice = t.tokens.alice;
    expect(await call(alice, "POST", "{not json")).toMatchObject({ status: 400, body: { code: "invalid-input" } });
    expect(await call(alice, "POST", "[]")).toMatchObject({ status: 400, body: { code: "invalid-input" } });
    expect(await call(alice, "POST", { ...chat("scout", "device:a"), extra: 1 })).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", { agentId: "scout", person: "device:a" })).toMatchObject({ status: 400, body: { message: expect.stringContaining("planId") } });
    expect(await call(alice, "POST", chat("scout", "device:a", "not-a-document-id"))).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", chat("Scout!", "device:a"))).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", chat("scout", "someone"))).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", chat("scout", "device:a b", planOf("scout", "device:a")))).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", JSON.stringify(chat("scout", "device:a")), { "content-type": "text/plain" })).toMatchObject({ status: 415 });
    expect(await call(alice, "DELETE")).toMatchObject({ status: 405 });
    const huge = JSON.stringify({ ...chat("scout", "device:a"), pad: "x".repeat(RELAY_MAX_AGENT_CHAT_BODY_BYTES) });
    expect(await call(alice, "POST", huge)).toMatchObject({ status: 413, body: { code: "too-large" } });
    // Bounds: an agent id and a person key at their longest are taken; one more character is refused.
    const longAgent = "a".repeat(MAX_AGENT_ID_CHARS);
    const longPerson = `device:${"d".repeat(MAX_AGENT_CHAT_PERSON_CHARS - "device:".length)}`;
    expect(await call(alice, "POST", chat(longAgent, longPerson))).toMatchObject({ status: 200 });
    expect(await call(alice, "POST", chat(`${longAgent}a`, longPerson))).toMatchObject({ status: 400 });
    expect(await call(alice, "POST", chat(longAgent, `${longPerson}d`))).toMatchObject({ status: 400 });
    // Still serving: health, and a good registration.
    expect((await fetch(`${t.relay.httpUrl}/healthz`)).status).toBe(200);
    expect(await call(alice, "POST", chat("scout", "device:a"))).toMatchObject({ status: 200, body: { created: true } });
  });
});

describe("who may register a chat", () => {
  const table = () => {
    const db = new Database(":memory:");
    db.exec(AGENT_CHAT_TABLE_SQL);
    return new AgentChatTable(db);
  };

  it("lets a GitHub user register only their own github:<login> chats, and never a device's", () => {
    const chats = table();
    expect(registrationRefusal(chats, "t", "gh:alice", "github:alice")).toBeNull();
    expect(registrationRefusal(chats, "t", "gh:bob", "github:alice")).toMatchObject({ status: 403, code: "forbidden" });
    expect(registrationRefusal(chats, "t", "alice", "github:alice")).toMatchObject({ status: 403 });
    expect(registrationRefusal(chats, "t", "gh:alice", "device:d1")).toMatchObject({ status: 403 });
  });

  it("gives a device's chats to the relay user who registered its first one", () => {
    const chats = table();
    expect(registrationRefusal(chats, "t", "alice", "device:d1")).toBeNull();
    chats.register("t", { agentId: "scout", person: "device:d1", planId: "p1" }, "alice");
    expect(registrationRefusal(chats, "t", "alice", "device:d1")).toBeNull();
    expect(registrationRefusal(chats, "t", "bob", "device:d1")).toMatchObject({ status: 403 });
    // Another team's table is its own.
    expect(registrationRefusal(chats, "other", "bob", "device:d1")).toBeNull();
  });

  it("registers a person's stars under the chats' rule of who may: once, the same again as held, a device already another member's refused", async () => {
    const stars = async (token: string | null, body: unknown) => {
      const response = await fetch(`${t.relay.httpUrl}/v1/agent-stars`, {
        method: "POST",
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const team = t.relay.teamIndexDocumentId;
    const first = await stars(t.tokens.alice, { person: "device:alice-laptop" });
    expect(first).toMatchObject({
      status: 200,
      body: { created: true, stars: { person: "device:alice-laptop", registeredBy: "alice", documentId: agentStarsIdOf({ scope: { kind: "team", teamIndexId: team }, person: "device:alice-laptop" }) } },
    });
    expect(await stars(t.tokens.alice, { person: "device:alice-laptop" })).toMatchObject({ status: 200, body: { created: false } });
    // Bob may register neither alice's device's stars nor, once she registered them, a chat of that device.
    expect(await stars(t.tokens.bob, { person: "device:alice-laptop" })).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await call(t.tokens.bob, "POST", chat("scout", "device:alice-laptop"))).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // The other way round: a device whose chat bob registered is his for stars too.
    expect((await call(t.tokens.bob, "POST", chat("scout", "device:bob-desk"))).status).toBe(200);
    expect(await stars(t.tokens.alice, { person: "device:bob-desk" })).toMatchObject({ status: 403 });
    expect((await stars(t.tokens.bob, { person: "device:bob-desk" })).status).toBe(200);
    // A relay token registers no GitHub person; members only; bad bodies are typed 4xx.
    expect(await stars(t.tokens.alice, { person: "github:alice" })).toMatchObject({ status: 403 });
    expect(await stars(null, { person: "device:x" })).toMatchObject({ status: 401 });
    expect(await stars(t.tokens.alice, { person: "device:x", planId: "extra" })).toMatchObject({ status: 400, body: { code: "invalid-input" } });
    expect(await stars(t.tokens.alice, "{not json")).toMatchObject({ status: 400, body: { code: "invalid-input" } });
    expect(await stars(t.tokens.alice, { person: `device:${"x".repeat(MAX_AGENT_CHAT_PERSON_CHARS)}` })).toMatchObject({ status: 400 });
    const get = await fetch(`${t.relay.httpUrl}/v1/agent-stars`, { headers: { authorization: `Bearer ${t.tokens.alice}` } });
    expect(get.status).toBe(405);
    await get.text();
    // Kept across a restart.
    await t.reopen({});
    expect(await stars(t.tokens.bob, { person: "device:alice-laptop" })).toMatchObject({ status: 403 });
  });
});
