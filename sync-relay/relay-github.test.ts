/**
 * GitHub admission at a real relay (startRelay in-process, real sockets) against the fake GitHub run as a child
 * process: sync-relay/ may import only shared/, so the relay talks to the fake over HTTP exactly as to GitHub, and the
 * test drives the fake through its /_fake/ control surface.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RELAY_GITHUB_CHECK_WINDOW_MS, RELAY_GITHUB_CHECKS_PER_ADDRESS } from "./limits.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";
import { startRelay, type RelayOptions, type RunningRelay } from "./server.js";
import { rawClient, tempDir, type RawClient } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";
import { useFakeGitHubProcess } from "./test-fake-github.js";

const fake = useFakeGitHubProcess();
const control = fake.control;
const githubCalls = async (prefix: string) => ((await control("requests", {}, `?prefix=${encodeURIComponent(prefix)}`)) as { count: number }).count;

/** A fresh user token for `login` through the fake's device flow, as the app gets one. */
async function issueToken(login: string): Promise<string> {
  const form = (body: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(body).toString(),
  });
  const clientId = "Iv1.fakeclientid0001";
  const code = (await (await fetch(`${fake.url()}/login/device/code`, form({ client_id: clientId }))).json()) as { device_code: string; user_code: string };
  await control("approve-device", { userCode: code.user_code, login });
  const grant = { client_id: clientId, device_code: code.device_code, grant_type: "urn:ietf:params:oauth:grant-type:device_code" };
  const tokens = (await (await fetch(`${fake.url()}/login/oauth/access_token`, form(grant))).json()) as { access_token: string };
  return tokens.access_token;
}


let dir: ReturnType<typeof tempDir>;
let relay: RunningRelay | null = null;
const sockets: RawClient[] = [];

beforeEach(async () => {
  dir = tempDir("chopin-relay-gh-");
  await control("clear-failures");
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.terminate();
  await relay?.close();
  relay = null;
  await control("clear-failures");
  dir.remove();
});

async function start(github: Partial<NonNullable<RelayOptions["github"]>> = {}): Promise<RunningRelay> {
  relay = await startRelay({ dataDir: join(dir.path, "relay"), github: { apiUrl: fake.url(), allowedOrgs: ["octo-org"], ...github } });
  return relay;
}

function client(token: string | null): RawClient {
  const c = rawClient(relay!.url, token);
  sockets.push(c);
  return c;
}

async function refusal(token: string | null): Promise<{ status: number; body: { code: string; message: string } }> {
  const c = client(token);
  await waitFor(() => c.refused !== null || c.opened, "refusal");
  expect(c.opened).toBe(false);
  return { status: c.refused!.status, body: JSON.parse(c.refused!.body) as { code: string; message: string } };
}

async function team(token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${relay!.httpUrl}/v1/team`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("relay admission by GitHub token", () => {
  it("admits an allowed user and an active member of an allowed organization, as gh:<login>", async () => {
    await start({ allowedUsers: ["dave"] });
    // dave is in no allowed organization: admitted by the user list alone.
    await client("ghu_dave").join("device-dave");
    await client("ghu_alice").join("device-alice");
    expect(relay!.connections()).toBe(2);
    expect(await team("ghu_alice")).toEqual({ status: 200, body: { user: "gh:alice", teamIndexDocumentId: relay!.teamIndexDocumentId } });
    expect((await team("ghu_dave")).body.user).toBe("gh:dave");
  });

  it("refuses a valid GitHub user it does not admit with 403 and the reason, at the upgrade and at /v1/team", async () => {
    await start();
    const mallory = await refusal("ghu_mallory");
    expect(mallory).toEqual({ status: 403, body: { code: "forbidden", message: expect.stringMatching(/mallory is not an allowed user/) } });
    // A pending invitation is not membership.
    expect((await refusal("ghu_carol")).status).toBe(403);
    expect(await team("ghu_mallory")).toMatchObject({ status: 403, body: { code: "forbidden" } });
  });

  it("refuses a token GitHub does not accept, or none, with 401", async () => {
    await start();
    for (const token of ["ghu_forged", null]) {
      const refused = await refusal(token);
      expect(refused).toEqual({ status: 401, body: { code: "unauthorized", message: expect.stringMatching(/token/) } });
    }
    expect((await team("ghu_forged")).status).toBe(401);
  });

  it("fails closed with 503 while GitHub fails, keeping live connections, and admits again once it answers", async () => {
    await start();
    const live = client("ghu_alice");
    await live.join("device-alice");
    await control("inject", { failure: { kind: "status", status: 500 }, pathPrefix: "/user" });
    const down = await refusal("ghu_bob");
    expect(down).toEqual({
      status: 503,
      body: { code: "github-unavailable", message: expect.stringMatching(/cannot verify GitHub sign-ins right now/) },
    });
    expect((await team("ghu_bob")).status).toBe(503);
    // A re-verification pass during the outage asks GitHub (and fails) but cuts nobody.
    const before = await githubCalls("/user");
    expect(await relay!.reverifyGitHub()).toBe(0);
    expect(await githubCalls("/user")).toBeGreaterThan(before);
    expect(live.closed).toBeNull();
    expect(relay!.connections()).toBe(1);

    await control("clear-failures");
    await client("ghu_bob").join("device-bob");
    expect(live.closed).toBeNull();
  });

  it("cuts off a live user removed from the organization on the next re-verification, with 4401 and the reason", async () => {
    await start({ reverifyMs: 50 });
    const bob = client("ghu_bob");
    await bob.join("device-bob");
    const alice = client("ghu_alice");
    await alice.join("device-alice");
    try {
      await control("membership", { login: "bob", org: "octo-org", state: null });
      await waitFor(() => bob.closed !== null, "bob cut off");
      expect(bob.closed).toEqual({ code: CLOSE_CODES.revoked, reason: expect.stringMatching(/bob is not an allowed user/) });
      expect(alice.closed).toBeNull();
      expect((await refusal("ghu_bob")).status).toBe(403);
    } finally {
      await control("membership", { login: "bob", org: "octo-org", state: "active" });
    }
  });

  it("cuts off a live connection whose token GitHub revoked", async () => {
    await start();
    // Revoking a fixture token would outlive this test in the fake, so sign bob in afresh for a token of his own.
    const token = await issueToken("bob");
    const bob = client(token);
    await bob.join("device-bob");
    await control("revoke-token", { token });
    expect(await relay!.reverifyGitHub()).toBe(1);
    await waitFor(() => bob.closed !== null, "bob cut off");
    expect(bob.closed?.code).toBe(CLOSE_CODES.revoked);
  });

  it("caches admission for 30 s by token hash: a second connection makes no GitHub call", async () => {
    await start();
    const before = await githubCalls("/user");
    await client("ghu_alice").join("device-alice-1");
    const afterFirst = await githubCalls("/user");
    expect(afterFirst - before).toBe(2); // GET /user and the octo-org membership
    await client("ghu_alice").join("device-alice-2");
    expect(await team("ghu_alice")).toMatchObject({ status: 200 });
    expect(await githubCalls("/user")).toBe(afterFirst);
  });
});

describe("GitHub checks per address", () => {
  it("stops asking GitHub for an address whose tokens keep failing, with 429, while relay tokens still work", async () => {
    await start();
    const relayBob = relay!.users.add("bob").token;
    const before = await githubCalls("/user");
    // Sequential, unique forged tokens (nothing cached): each costs one GitHub request until the budget is spent.
    for (let i = 0; i < RELAY_GITHUB_CHECKS_PER_ADDRESS; i++) {
      expect((await team(`ghu_forged_${i}`)).status).toBe(401);
    }
    expect(await githubCalls("/user")).toBe(before + RELAY_GITHUB_CHECKS_PER_ADDRESS);
    const limited = await refusal("ghu_forged_next");
    expect(limited).toEqual({ status: 429, body: { code: "rate-limited", message: expect.stringMatching(/Too many refused sign-ins .* try again in \d+ s/) } });
    const limitedHttp = await fetch(`${relay!.httpUrl}/v1/team`, { headers: { authorization: "Bearer ghu_forged_next2" } });
    const limitedBody = (await limitedHttp.json()) as { code: string; message: string };
    expect({ status: limitedHttp.status, code: limitedBody.code }).toEqual({ status: 429, code: "rate-limited" });
    // Retry-After is when this address's window ends, the same number the sentence gives.
    const retryAfter = Number(limitedHttp.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(RELAY_GITHUB_CHECK_WINDOW_MS / 1000);
    expect(limitedBody.message).toContain(`try again in ${retryAfter} s`);
    expect(await githubCalls("/user")).toBe(before + RELAY_GITHUB_CHECKS_PER_ADDRESS);
    // A relay token never reaches the GitHub check.
    expect(await team(relayBob)).toMatchObject({ status: 200, body: { user: "bob" } });
  });

  it("does not count sign-ins GitHub admits", async () => {
    await start();
    for (let i = 0; i < RELAY_GITHUB_CHECKS_PER_ADDRESS - 1; i++) expect((await team(`ghu_forged_${i}`)).status).toBe(401);
    expect((await team("ghu_alice")).status).toBe(200);
    expect((await team("ghu_forged_last")).status).toBe(401);
    expect((await team("ghu_forged_over")).status).toBe(429);
  });
});

describe("relay tokens beside GitHub admission", () => {
  it("keeps working, and a GitHub login can neither be nor take over a relay user of the same handle", async () => {
    await start();
    const relayAlice = relay!.users.add("alice").token;
    expect(await team(relayAlice)).toMatchObject({ status: 200, body: { user: "alice" } });
    expect(await team("ghu_alice")).toMatchObject({ status: 200, body: { user: "gh:alice" } });

    const local = client(relayAlice);
    await local.join("device-shared");
    const github = client("ghu_alice");
    // The plain peer id is bound to the relay user "alice"; the GitHub identity gh:alice may not present it.
    await expect(github.join("device-shared")).rejects.toThrow(/join refused/);
    expect(github.closed?.code).toBe(CLOSE_CODES.peerRefused);
    // Nor a "<handle>:<device>" id of the relay user.
    const github2 = client("ghu_alice");
    await expect(github2.join("alice:laptop")).rejects.toThrow(/join refused/);
    const github3 = client("ghu_alice");
    await github3.join("device-gh-alice");

    // The relay-user revocation poll leaves GitHub-admitted sockets alone, and revoking the relay user cuts only it.
    expect(relay!.pollUsers()).toBe(0);
    relay!.users.revoke("alice");
    expect(relay!.pollUsers()).toBe(1);
    await waitFor(() => local.closed !== null, "relay user cut");
    expect(github3.closed).toBeNull();
  });

  it("without GitHub configured refuses GitHub tokens with 401 and never asks GitHub", async () => {
    relay = await startRelay({ dataDir: join(dir.path, "relay") });
    const before = await githubCalls("/");
    expect((await refusal("ghu_alice")).status).toBe(401);
    expect((await team("ghu_alice")).status).toBe(401);
    expect(await githubCalls("/")).toBe(before);
  });
});
