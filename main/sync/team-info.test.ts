/**
 * RELAY_HTTP_TIMEOUT_MS is what GET /v1/team waits by default. AbortSignal.timeout runs on Node's internal timers,
 * which fake timers cannot move, so the default is checked as the value the call passes on and the behaviour at the
 * edge with a short injected bound against a real server that never answers.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RELAY_HTTP_TIMEOUT_MS } from "../util/limits.js";
import { fetchTeamInfo } from "./team-info.js";
import { waitFor } from "../../shared/wait-for.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("fetchTeamInfo timeout", () => {
  it("asks with an AbortSignal.timeout of RELAY_HTTP_TIMEOUT_MS by default, and gives up on a silent relay", async () => {
    const held: Array<() => void> = [];
    const silent = createServer((_req, res) => held.push(() => res.destroy()));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `ws://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const timeout = vi.spyOn(AbortSignal, "timeout");
      const failure = await fetchTeamInfo(url, "t", 50).catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: "relay-unavailable" });
      expect(timeout).toHaveBeenLastCalledWith(50);
      // The default: the same call with no bound passes RELAY_HTTP_TIMEOUT_MS on (answered by closing the socket).
      const before = held.length;
      const answered = fetchTeamInfo(url, "t").catch((e: unknown) => e);
      expect(timeout).toHaveBeenLastCalledWith(RELAY_HTTP_TIMEOUT_MS);
      await waitFor(() => held.length > before, "the relay heard the request");
      held.forEach((end) => end());
      expect(await answered).toMatchObject({ code: "relay-unavailable" });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("fetchTeamInfo failures in words", () => {
  it("names the address as configured (ws://) and why: nothing listens there", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await fetchTeamInfo(`ws://127.0.0.1:${port}`, "t").catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "relay-unavailable" });
    expect((failure as Error).message).toBe(
      `Cannot reach the relay at ws://127.0.0.1:${port}: The relay is not running at its address, or the address is wrong.`,
    );
  });

  it("says an unexplained failure once, not twice", async () => {
    // fetch refuses port 9 itself ("bad port"): no socket error code explains it.
    const failure = await fetchTeamInfo("ws://127.0.0.1:9", "t").catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: "relay-unavailable" });
    expect((failure as Error).message).toBe("Cannot reach the relay at ws://127.0.0.1:9.");
  });

  it("says a silent relay did not answer in time", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const failure = await fetchTeamInfo(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`, "t", 50).catch((e: unknown) => e);
      expect((failure as Error).message).toMatch(/did not answer in time/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
