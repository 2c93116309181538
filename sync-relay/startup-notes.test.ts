/** The relay's startup notes: the loopback warning, the member address hint and the no-users hint, at their edges. */
import { describe, expect, it } from "vitest";
import { isLoopbackHost, startupNotes, type StartupFacts } from "./startup-notes.js";

const base: StartupFacts = { host: "127.0.0.1", port: 47620, dataDir: "/var/lib/relay", activeUsers: 1, githubAdmission: false };

describe("isLoopbackHost", () => {
  it("knows the addresses only this machine reaches", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]", "::ffff:127.0.0.1"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "relay.example.com", "128.0.0.1", "::ffff:10.0.0.1"]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe("startupNotes", () => {
  it("says a loopback relay is reachable only from this machine and how to change it, in one line", () => {
    const notes = startupNotes(base);
    expect(notes).toEqual([expect.stringMatching(/^Reachable only from this machine \(127\.0\.0\.1 is a loopback address\): .*--host 0\.0\.0\.0 .*CHOPIN_RELAY_HOST.*wss:\/\//)]);
  });

  it("tells a relay serving other machines what address members use", () => {
    expect(startupNotes({ ...base, host: "0.0.0.0" })).toEqual([expect.stringMatching(/^Members connect to ws:\/\/<this machine's name or address>:47620 /)]);
  });

  it("with no active user says how to add one for this data folder, unless GitHub admission lets people in", () => {
    expect(startupNotes({ ...base, activeUsers: 0 })).toContain(
      "No users yet, so nobody can connect: add one with npm run relay -- user add <handle> --data /var/lib/relay",
    );
    expect(startupNotes({ ...base, activeUsers: 0, dataDir: "my relay's data" }).at(-1)).toMatch(/--data 'my relay'\\''s data'$/);
    expect(startupNotes({ ...base, activeUsers: 0, githubAdmission: true }).join("\n")).not.toMatch(/No users yet/);
  });
});
