/**
 * The relay CLI as an operator runs it: real child processes (`tsx sync-relay/cli.ts ...`) against a data directory,
 * including a revocation from a separate process while a relay serves the same database.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { next as A } from "@automerge/automerge";
import { generateAutomergeUrl, parseAutomergeUrl } from "@automerge/automerge-repo";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChopinError } from "../shared/errors.js";
import { MAX_HANDLE_CHARS, RELAY_REVOCATION_BOUND_MS } from "./limits.js";
import { CLOSE_CODES } from "../shared/sync-wire.js";
import { DEFAULT_RELAY_PORT } from "../shared/defaults.js";
import { HELP, parseCli } from "./cli-commands.js";
import { RELAY_DB_FILE, openRelayDb } from "./relay-db.js";
import { describeRelayFailure } from "./startup-errors.js";
import { RELAY_PEER_ID, startRelay } from "./server.js";
import { UserStore } from "./users.js";
import { RawDocSync, rawClient, tempDir } from "./test-wire.js";
import { waitFor } from "../shared/wait-for.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const tsx = join(root, "node_modules", ".bin", "tsx");

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; result: Promise<Run>; stdout: () => string } {
  const child = spawn(tsx, [join(root, "sync-relay", "cli.ts"), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const result = new Promise<Run>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, result, stdout: () => stdout };
}

const run = (args: string[], env?: Record<string, string>) => start(args, env).result;

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("chopin-relay-cli-");
});
afterEach(() => dir.remove());

describe("parseCli", () => {
  it("reads serve options from flags, then the environment, then defaults", () => {
    expect(parseCli([], {})).toEqual({ kind: "serve", port: DEFAULT_RELAY_PORT, host: "127.0.0.1", dataDir: "relay-data" });
    expect(parseCli([], { CHOPIN_RELAY_PORT: "9000", CHOPIN_RELAY_DATA: "/d" })).toMatchObject({ port: 9000, dataDir: "/d" });
    expect(parseCli(["--port", "0", "--data=/x", "--host", "0.0.0.0"], { CHOPIN_RELAY_PORT: "9000" })).toEqual({
      kind: "serve",
      port: 0,
      host: "0.0.0.0",
      dataDir: "/x",
    });
    expect(parseCli(["user", "add", "alice", "--data", "/x"], {})).toEqual({ kind: "user-add", handle: "alice", dataDir: "/x" });
    expect(parseCli(["user", "list"], {})).toMatchObject({ kind: "user-list" });
    expect(parseCli(["user", "revoke", "bob"], {})).toMatchObject({ kind: "user-revoke", handle: "bob" });
  });

  it("takes tokens in the address only when --allow-query-token (or CHOPIN_RELAY_ALLOW_QUERY_TOKEN=1) says so", () => {
    expect(parseCli([], {})).not.toHaveProperty("allowQueryToken");
    expect(parseCli(["--allow-query-token"], {})).toMatchObject({ kind: "serve", allowQueryToken: true });
    expect(parseCli([], { CHOPIN_RELAY_ALLOW_QUERY_TOKEN: "1" })).toMatchObject({ allowQueryToken: true });
    expect(() => parseCli(["--allow-query-token=yes"], {})).toThrow(/--allow-query-token takes no value/);
    expect(() => parseCli([], { CHOPIN_RELAY_ALLOW_QUERY_TOKEN: "yes" })).toThrow(/is not 1/);
  });

  it("refuses bad arguments with a sentence", () => {
    for (const argv of [["--port", "http"], ["--port", "70000"], ["--bogus", "1"], ["user"], ["user", "add"], ["other"], ["--data"]]) {
      expect(() => parseCli(argv, {}), argv.join(" ")).toThrow(ChopinError);
    }
  });

  it("reads an empty environment variable as unset: never a host of \"\" (every interface) nor a folder of \"\"", () => {
    expect(parseCli([], { CHOPIN_RELAY_HOST: "", CHOPIN_RELAY_PORT: " ", CHOPIN_RELAY_DATA: "" })).toEqual({
      kind: "serve",
      port: DEFAULT_RELAY_PORT,
      host: "127.0.0.1",
      dataDir: "relay-data",
    });
    expect(parseCli(["user", "list"], { CHOPIN_RELAY_DATA: "" })).toEqual({ kind: "user-list", dataDir: "relay-data" });
  });

  it("names where a bad port came from", () => {
    expect(() => parseCli([], { CHOPIN_RELAY_PORT: "abc" })).toThrow(/^CHOPIN_RELAY_PORT "abc" is not a port number/);
    expect(() => parseCli(["--port", "70000"], {})).toThrow(/^--port "70000" is not a port number/);
  });

  it("refuses serving options on user commands instead of ignoring them", () => {
    expect(() => parseCli(["user", "add", "carol", "--port", "5", "--data", "/x"], {})).toThrow(/--port is for serving; user commands take only --data DIR/);
    expect(parseCli(["user", "add", "carol", "--data", "/x"], {})).toEqual({ kind: "user-add", handle: "carol", dataDir: "/x" });
  });

  it("says a handle is missing, and judges its shape before anything opens the database", () => {
    expect(() => parseCli(["user", "add"], {})).toThrow(/"user add" needs a handle: npm run relay -- user add <handle>/);
    expect(() => parseCli(["user", "revoke", "--data", "/x"], {})).toThrow(/"user revoke" needs a handle/);
    expect(() => parseCli(["user", "add", "bad/handle"], {})).toThrow(/"bad\/handle" is not a valid handle/);
    expect(() => parseCli(["user", "add", "x".repeat(MAX_HANDLE_CHARS + 1)], {})).toThrow(/not a valid handle/);
    expect(parseCli(["user", "add", "x".repeat(MAX_HANDLE_CHARS)], {})).toMatchObject({ kind: "user-add" });
  });

  it("--help lists every option's default and environment variable", () => {
    expect(parseCli(["--help"], {})).toEqual({ kind: "help" });
    for (const fact of ["default 47620", "default 127.0.0.1", "default ./relay-data", "0.0.0.0"]) expect(HELP).toContain(fact);
    for (const variable of ["PORT", "HOST", "DATA", "GITHUB_API_URL", "ALLOWED_USERS", "ALLOWED_ORGS"]) expect(HELP).toContain(`CHOPIN_RELAY_${variable}`);
  });
});

describe("parseCli GitHub admission", () => {
  it("reads --github-api-url and the allowed lists from flags, then the environment", () => {
    expect(parseCli(["--github-api-url", "https://api.github.com", "--allowed-users", "alice, bob,", "--allowed-orgs=octo-org"], {})).toMatchObject({
      kind: "serve",
      github: { apiUrl: "https://api.github.com", allowedUsers: ["alice", "bob"], allowedOrgs: ["octo-org"] },
    });
    const env = {
      CHOPIN_RELAY_GITHUB_API_URL: "https://ghe.example/api/v3",
      CHOPIN_RELAY_ALLOWED_USERS: "carol",
      CHOPIN_RELAY_ALLOWED_ORGS: "o1,o2",
    };
    expect(parseCli([], env)).toMatchObject({ github: { apiUrl: "https://ghe.example/api/v3", allowedUsers: ["carol"], allowedOrgs: ["o1", "o2"] } });
    expect(parseCli(["--allowed-orgs", "x"], env)).toMatchObject({ github: { allowedOrgs: ["x"] } });
    // Both lists empty: every GitHub user (cli.ts says so loudly at start).
    expect(parseCli(["--github-api-url", "http://127.0.0.1:1"], {})).toMatchObject({ github: { allowedUsers: [], allowedOrgs: [] } });
    expect(parseCli([], {})).not.toHaveProperty("github");
  });

  it("refuses allowed lists without an API URL, a bad URL and bad names, with a sentence", () => {
    for (const argv of [
      ["--allowed-users", "alice"],
      ["--allowed-orgs", "octo-org"],
      ["--github-api-url", "not a url"],
      ["--github-api-url", "ftp://x"],
      ["--github-api-url", "https://api.github.com", "--allowed-users", "bad name"],
      ["--github-api-url", "https://api.github.com", "--allowed-orgs", "gh:x"],
    ]) {
      expect(() => parseCli(argv, {}), argv.join(" ")).toThrow(ChopinError);
    }
    expect(() => parseCli([], { CHOPIN_RELAY_ALLOWED_ORGS: "octo-org" })).toThrow(/--github-api-url/);
  });
});

describe("relay CLI processes", () => {
  it("adds a user printing the token alone on the last line, lists and revokes", async () => {
    const data = join(dir.path, "data");
    const added = await run(["user", "add", "alice", "--data", data]);
    expect(added.code).toBe(0);
    const token = added.stdout.trimEnd().split("\n").at(-1)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const db = openRelayDb(data);
    expect(new UserStore(db).authenticate(token)?.handle).toBe("alice");
    db.close();

    expect((await run(["user", "add", "alice"], { CHOPIN_RELAY_DATA: data })).code).toBe(1);
    const listed = await run(["user", "list", "--data", data]);
    expect(listed.stdout).toMatch(/^alice\t.*\tactive$/m);
    expect((await run(["user", "revoke", "alice", "--data", data])).code).toBe(0);
    expect((await run(["user", "revoke", "alice", "--data", data])).code).toBe(1);
    expect((await run(["user", "list", "--data", data])).stdout).toMatch(/^alice\t.*\trevoked /m);
    const bad = await run(["user", "frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown user command/);
  }, 60_000);

  it("refuses a missing or malformed handle with exit 2 before creating anything", async () => {
    const data = join(dir.path, "untouched");
    const missing = await run(["user", "add", "--data", data]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/"user add" needs a handle/);
    expect(missing.stderr).toContain("npm run relay -- user add <handle> [--data DIR]");
    expect(missing.stderr).not.toMatch(/Unknown user command/);
    const malformed = await run(["user", "add", "bad/handle", "--data", data]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/"bad\/handle" is not a valid handle/);
    expect(malformed.stderr).not.toMatch(/Created a new relay database/);
    expect(existsSync(data)).toBe(false);
  }, 60_000);

  it("serves, then shuts down gracefully on SIGTERM keeping an edit made right before the signal", async () => {
    const data = join(dir.path, "data");
    const token = (await run(["user", "add", "alice", "--data", data])).stdout.trimEnd().split("\n").at(-1)!;
    const relay = start([], { CHOPIN_RELAY_PORT: "0", CHOPIN_RELAY_DATA: data });
    await waitFor(() => /listening on ws:\/\/127\.0\.0\.1:\d+/.test(relay.stdout()), "relay listening", 30_000);
    const port = /127\.0\.0\.1:(\d+)/.exec(relay.stdout())![1];
    await waitFor(() => relay.stdout().includes("RELAY_READY"), "relay ready");
    expect(relay.stdout()).toMatch(/^Reachable only from this machine \(127\.0\.0\.1 is a loopback address\): .*--host 0\.0\.0\.0 \(or CHOPIN_RELAY_HOST=0\.0\.0\.0\)/m);
    expect(relay.stdout()).not.toMatch(/No users yet/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await health.json()).toMatchObject({ ok: true, connections: 0 });

    const socket = rawClient(`ws://127.0.0.1:${port}/`, token);
    await socket.join("alice:laptop");
    const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
    const copy = new RawDocSync(socket, "alice:laptop", RELAY_PEER_ID, documentId, A.from<{ items: string[] }>({ items: ["first"] }));
    await copy.push();
    // Well inside RELAY_SAVE_DEBOUNCE_MS of the signal, so only the shutdown flush can save this edit.
    copy.doc = A.change(copy.doc, (d) => void d.items.push("right before SIGTERM"));
    await copy.push();
    relay.child.kill("SIGTERM");
    const done = await relay.result;
    socket.ws.terminate();
    expect(done.code).toBe(0);
    expect(done.stdout).toMatch(/relay stopped/);

    const restarted = await startRelay({ dataDir: data });
    try {
      const handle = await restarted.repo.find<{ items: string[] }>(documentId);
      expect(handle.doc().items).toEqual(["first", "right before SIGTERM"]);
    } finally {
      await restarted.close();
    }
  }, 60_000);

  it("exits after a clean stop even while a document lookup is pending", async () => {
    const data = join(dir.path, "data");
    const token = (await run(["user", "add", "alice", "--data", data])).stdout.trimEnd().split("\n").at(-1)!;
    const relay = start([], { CHOPIN_RELAY_PORT: "0", CHOPIN_RELAY_DATA: data });
    await waitFor(() => relay.stdout().includes("RELAY_READY"), "relay ready", 30_000);
    const port = /"port":(\d+)/.exec(relay.stdout())![1];
    const asker = rawClient(`ws://127.0.0.1:${port}/`, token);
    await asker.join("alice:laptop");
    // A sync message with heads for a document the relay lacks: the relay takes alice for one who has it and waits
    // for the document (automerge-repo's lookup holds two timers of up to two minutes), while alice stays silent.
    const { documentId } = parseAutomergeUrl(generateAutomergeUrl());
    const [, withHeads] = A.generateSyncMessage(A.change(A.init<{ x?: number }>(), (d) => void (d.x = 1)), A.initSyncState());
    asker.send({ type: "sync", senderId: "alice:laptop", targetId: RELAY_PEER_ID, documentId, data: withHeads! } as never);
    await waitFor(() => asker.frames.some((f) => "documentId" in f && f.documentId === documentId), "the relay answered");
    relay.child.kill("SIGTERM");
    // Far inside that lookup's timers, which held the stopped process for two minutes before.
    const exited = await Promise.race([relay.result, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
    asker.ws.terminate();
    if (exited === null) relay.child.kill("SIGKILL");
    expect(exited).toMatchObject({ code: 0 });
    expect(exited!.stdout).toMatch(/relay stopped/);
  }, 60_000);

  it.skipIf(process.platform === "win32")("`npm run relay` stops gracefully on a SIGTERM to npm's own pid and frees the port", async () => {
    const npm = spawn("npm", ["run", "relay", "--", "--port", "0", "--data", join(dir.path, "data")], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    npm.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    npm.stderr!.on("data", () => undefined);
    await waitFor(() => stdout.includes("RELAY_READY"), "relay ready", 30_000);
    const port = Number(/"port":(\d+)/.exec(stdout)![1]);
    // What a supervisor does: the signal goes to npm alone, not to its process group.
    npm.kill("SIGTERM");
    await waitFor(() => stdout.includes("relay stopped"), "the relay's own graceful stop");
    expect(stdout).toMatch(/SIGTERM: shutting down\nrelay stopped/);
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  }, 60_000);

  it("a revocation from another process cuts the user's sockets within the bound", async () => {
    const data = join(dir.path, "data");
    const relay = await startRelay({ dataDir: data });
    try {
      const token = relay.users.add("bob").token;
      const socket = rawClient(relay.url, token);
      await socket.join("bob:laptop");
      const revoked = await run(["user", "revoke", "bob", "--data", data]);
      expect(revoked.code).toBe(0);
      await waitFor(() => socket.closed !== null, "socket cut", RELAY_REVOCATION_BOUND_MS);
      expect(socket.closed?.code).toBe(CLOSE_CODES.revoked);
    } finally {
      await relay.close();
    }
  }, 60_000);
});

describe("relay CLI data folder and startup failures", () => {
  it("user list and user revoke refuse a folder without a relay database, creating nothing", async () => {
    const typo = join(dir.path, "typo");
    for (const args of [["user", "list", "--data", typo], ["user", "revoke", "alice", "--data", typo]]) {
      const refused = await run(args);
      expect(refused.code, args.join(" ")).toBe(1);
      expect(refused.stderr).toMatch(/No relay database in .*typo/);
      expect(refused.stdout).not.toMatch(/No users/);
      expect(existsSync(typo)).toBe(false);
    }
    const empty = join(dir.path, "empty");
    mkdirSync(empty);
    expect((await run(["user", "list", "--data", empty])).code).toBe(1);
    expect(existsSync(join(empty, RELAY_DB_FILE))).toBe(false);
  }, 60_000);

  it("user add creates a missing relay database and says where on stderr, only the first time", async () => {
    const data = join(dir.path, "fresh");
    const first = await run(["user", "add", "alice", "--data", data]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`Created a new relay database at ${join(data, RELAY_DB_FILE)}`);
    const second = await run(["user", "add", "bob", "--data", data]);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toMatch(/Created a new relay database/);
    expect((await run(["user", "list", "--data", data])).stdout).toMatch(/^bob\t/m);
  }, 60_000);

  it("a relay with no users says how to add one, naming its data folder", async () => {
    const data = join(dir.path, "no users");
    const relay = start(["--port", "0", "--data", data]);
    await waitFor(() => relay.stdout().includes("RELAY_READY"), "relay ready", 30_000);
    relay.child.kill("SIGTERM");
    const done = await relay.result;
    expect(done.code).toBe(0);
    expect(done.stdout).toContain(`No users yet, so nobody can connect: add one with npm run relay -- user add <handle> --data '${data}'`);
  }, 60_000);

  it("a data path that is a file gives a sentence, not EEXIST", async () => {
    const file = join(dir.path, "not-a-folder");
    writeFileSync(file, "x");
    const served = await run([], { CHOPIN_RELAY_PORT: "0", CHOPIN_RELAY_DATA: file });
    expect(served.code).toBe(1);
    expect(served.stderr).toMatch(/relay failed: The data path .*not-a-folder is a file, not a folder/);
    expect(served.stderr).not.toMatch(/EEXIST|ENOTDIR/);
    const added = await run(["user", "add", "alice", "--data", join(file, "sub")]);
    expect(added.code).toBe(1);
    // Not "…/sub is a file": a folder on its way is.
    expect(added.stderr).toMatch(/The data path .*not-a-folder\/sub goes through a file as if it were a folder/);
  }, 60_000);

  it("a port in use gives a sentence, not EADDRINUSE", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const served = await run([], { CHOPIN_RELAY_PORT: String(port), CHOPIN_RELAY_DATA: join(dir.path, "data") });
      expect(served.code).toBe(1);
      expect(served.stderr).toContain(`relay failed: Cannot listen on port ${port} on 127.0.0.1: another program already uses it.`);
      expect(served.stderr).not.toMatch(/EADDRINUSE/);
      // The port is bound before the data folder is touched.
      expect(existsSync(join(dir.path, "data"))).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  }, 60_000);

  it("describes permission failures and keeps an unknown failure's message", () => {
    const listen = Object.assign(new Error("listen EACCES"), { code: "EACCES", syscall: "listen", port: 80, address: "0.0.0.0" });
    expect(describeRelayFailure(listen)).toMatch(/^Not allowed to listen on port 80 on 0\.0\.0\.0 .*Choose another --port\.$/);
    const folder = Object.assign(new Error("EACCES: permission denied, mkdir '/root/x'"), { code: "EACCES", syscall: "mkdir", path: "/root/x" });
    expect(describeRelayFailure(folder)).toBe("No permission to use /root/x: choose a --data (or CHOPIN_RELAY_DATA) folder this user may write to.");
    const unknownHost = Object.assign(new Error("getaddrinfo ENOTFOUND notahost.invalid"), { code: "ENOTFOUND", syscall: "getaddrinfo", hostname: "notahost.invalid" });
    expect(describeRelayFailure(unknownHost)).toMatch(/^Cannot listen on notahost\.invalid: it is not a name this machine can look up\. Choose another --host/);
    expect(describeRelayFailure(new Error("boom"))).toBe("Unexpected failure: boom");
    expect(describeRelayFailure("odd")).toBe("Unexpected failure: odd");
    expect(describeRelayFailure(new ChopinError("not-found", "No relay database in /x."))).toBe("No relay database in /x.");
  });
});
