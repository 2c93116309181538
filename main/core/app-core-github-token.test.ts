/**
 * CHOPIN_GITHUB_TOKEN end to end in one process: the host's environment, parsed as `npm start -- --headless` parses it,
 * starts a core signed in to the (in-process) fake GitHub without any GitHub App client id, and the token is in no
 * file of the data folder (neither the sign-in vault nor chopin.db's settings); a refused token starts the core
 * signed out with the reason in the auth state.
 */
import Database from "better-sqlite3";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AuthState } from "../../shared/api.js";
import { waitFor } from "../../shared/wait-for.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { parseHostArgs } from "../host/cli-args.js";
import { hostCoreOptions } from "../host/core-options.js";
import { LOCAL_DB_FILE } from "../store/local-db.js";
import { tempDir } from "../sync/test-helpers.js";
import { createAppCore } from "./app-core.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The files under `dir` whose bytes contain `text`. */
function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(dir, f)).isFile() && readFileSync(join(dir, f)).includes(text));
}

/** A core started as host mode would start it from `env`, against a fresh fake GitHub (`env` may ask it for a token). */
async function startHost(env: (fake: FakeGitHub) => NodeJS.ProcessEnv) {
  const fake = await startFakeGitHub();
  cleanups.push(() => fake.close());
  const dir = tempDir("chopin-gh-token-");
  cleanups.push(() => dir.remove());
  const args = parseHostArgs(["--headless", "--no-open", "--mcp-port", "0", "--github-api-url", fake.url], env(fake));
  const core = await createAppCore(hostCoreOptions(args, dir.path));
  let closed: Promise<void> | null = null;
  const close = () => (closed ??= core.close());
  cleanups.push(close);
  const announced: AuthState[] = [];
  core.events.on("auth-state", (state) => announced.push(state));
  return { fake, dir: dir.path, core, announced, close, token: args.githubToken };
}

describe("app core with CHOPIN_GITHUB_TOKEN", () => {
  it("signs in as the token's owner without a client id, and keeps the token out of every file", { timeout: 60_000 }, async () => {
    const { fake, dir, core, announced, close, token } = await startHost((f) => ({ CHOPIN_GITHUB_TOKEN: f.state.issuePersonalToken("alice") }));
    expect(token).toMatch(/^github_pat_alice_/);
    const settled = await core.gitHubSignInSettled();
    expect(settled).toMatchObject({ state: "signed-in", login: "alice", credentialRevision: 1, suppliedToken: true, staySignedIn: false });
    expect(await core.api.getAuthState()).toMatchObject({ state: "signed-in", login: "alice" });
    await waitFor(() => announced.some((s) => s.state === "signed-in" && s.login === "alice"), "the auth-state event");
    expect(fake.state.requests.some((r) => r.path === "/user" && r.authorization === `Bearer ${token}`)).toBe(true);
    expect(fake.state.countRequests("/login/")).toBe(0);

    await close();
    expect(filesHolding(dir, token!)).toEqual([]);
    const db = new Database(join(dir, LOCAL_DB_FILE), { readonly: true });
    try {
      const settings = db.prepare("SELECT key, value FROM settings").all();
      expect(settings.length).toBeGreaterThan(0);
      expect(JSON.stringify(settings)).not.toContain(token);
    } finally {
      db.close();
    }
  });

  it("a refused token starts the core signed out, saying why in the auth state", { timeout: 60_000 }, async () => {
    const { core } = await startHost(() => ({ CHOPIN_GITHUB_TOKEN: "ghu_revoked_long_ago" }));
    const settled = await core.gitHubSignInSettled();
    expect(settled).toMatchObject({ state: "not-configured", lastError: { code: "unauthorized", message: expect.stringContaining("CHOPIN_GITHUB_TOKEN") } });
    expect(await core.api.getAuthState()).toEqual(settled);
    // The core is up and answers as usual.
    expect(await core.api.listDocuments()).toEqual([]);
  });
});
