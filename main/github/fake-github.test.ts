/**
 * The fake GitHub's own contract, checked where vitest looks (vitest.config includes no test-support/ folder): its
 * HTTP control surface drives the same state as in-process calls, so Playwright and cross-process tests can use it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectFakeGitHub } from "../../test-support/fake-github/control.js";
import { PLANETS } from "../../test-support/fake-github/fixtures.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";

let fake: FakeGitHub;
beforeAll(async () => {
  fake = await startFakeGitHub();
});
afterAll(() => fake.close());

const api = (path: string, token = "ghu_alice", accept = "application/vnd.github+json") =>
  fetch(`${fake.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept } });

describe("fake GitHub control surface", () => {
  it("approves a device code, pushes, renames and injects failures over HTTP", async () => {
    const remote = connectFakeGitHub(fake.url);
    const code = await (await fetch(`${fake.url}/login/device/code`, { method: "POST", headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body: `client_id=${fake.state.fixtures.clientId}` })).json() as { user_code: string; device_code: string };
    expect((await remote.devices()).map((d) => d.userCode)).toContain(code.user_code);
    await remote.approveDevice(code.user_code, "carol");
    const token = await (await fetch(`${fake.url}/login/oauth/access_token`, { method: "POST", headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ client_id: fake.state.fixtures.clientId, device_code: code.device_code, grant_type: "urn:ietf:params:oauth:grant-type:device_code" }).toString() })).json() as { access_token: string };
    expect(await (await api("/user", token.access_token)).json()).toMatchObject({ login: "carol" });

    const sha = await remote.push(PLANETS.id, "main", { "NEW.md": "hello\n" }, "remote push");
    expect(await (await api("/repos/octo-org/planets/branches/main")).json()).toMatchObject({ commit: { sha } });

    await remote.rename(PLANETS.id, "octo-org", "planets-renamed");
    expect((await api("/repos/octo-org/planets")).status).toBe(404);
    expect(await (await api(`/repositories/${PLANETS.id}`)).json()).toMatchObject({ full_name: "octo-org/planets-renamed" });
    await remote.rename(PLANETS.id, "octo-org", "planets");

    const { id } = await remote.inject({ kind: "status", status: 503 }, { pathPrefix: "/user" });
    expect((await api("/user")).status).toBe(503);
    await remote.removeFailure(id);
    expect((await api("/user")).status).toBe(200);
    expect(await remote.countRequests("/user")).toBeGreaterThanOrEqual(3);

    await remote.revokeToken(token.access_token);
    expect((await api("/user", token.access_token)).status).toBe(401);
  });

  it("hides repositories the App is not installed on, and serves diffs by media type", async () => {
    fake.state.setInstallationRepositories(71, []);
    expect((await api("/repos/octo-org/planets")).status).toBe(404);
    fake.state.setInstallationRepositories(71, [PLANETS.id]);
    const diff = await api("/repos/octo-org/planets/pulls/1", "ghu_alice", "application/vnd.github.diff");
    expect(await diff.text()).toMatch(/^diff --git a\/src\/lib\/rings.ts/);
  });
});
