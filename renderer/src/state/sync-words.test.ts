import { describe, expect, it } from "vitest";
import type { SyncStatus } from "../../../shared/api.js";
import { describeSync, retryWords } from "./sync-words.js";

const status = (state: SyncStatus["state"], pendingChanges = 0): SyncStatus => ({ state, pendingChanges, relayUrl: null, lastError: null });

describe("describeSync", () => {
  it("names every state the core reports, in words", () => {
    expect(describeSync(status("local-only"))).toBe("Local only");
    expect(describeSync(status("connected"))).toBe("Connected");
    expect(describeSync(status("connected", 2))).toBe("Connected — sending 2 changes");
    expect(describeSync(status("offline", 3))).toBe("Offline — 3 changes waiting");
    expect(describeSync(status("offline", 1))).toBe("Offline — 1 change waiting");
    expect(describeSync(status("offline", 0))).toBe("Offline");
    expect(describeSync(status("reconnecting"))).toBe("Reconnecting…");
    expect(describeSync(status("connecting"))).toBe("Connecting…");
    expect(describeSync(status("unauthorized"))).toBe("Cannot join the team");
    // Changes wait while cut off or reconnecting too, and the words say how many.
    expect(describeSync(status("unauthorized", 4))).toBe("Cannot join the team — 4 changes waiting");
    expect(describeSync(status("reconnecting", 1))).toBe("Reconnecting… — 1 change waiting");
    expect(describeSync(null)).toBe("Checking…");
  });
});

describe("offline with a retry pending", () => {
  const offline = (pendingChanges: number, nextRetryAt: number | null): SyncStatus => ({
    state: "offline",
    pendingChanges,
    relayUrl: "ws://relay",
    lastError: { code: "relay-unavailable", message: "The relay is not running at its address, or the address is wrong." },
    nextRetryAt,
  });

  it("says when the next attempt comes, counted down to the second", () => {
    const now = 1_000_000;
    expect(describeSync(offline(2, now + 4_200), now)).toBe("Offline — 2 changes waiting · retrying in 5s");
    expect(describeSync(offline(1, now + 1_000), now)).toBe("Offline — 1 change waiting · retrying in 1s");
    expect(describeSync(offline(0, now + 30_000), now + 20_500)).toBe("Offline · retrying in 10s");
  });

  it("says 'retrying now' once the attempt is due, and nothing when the core is not retrying", () => {
    expect(retryWords(5_000, 5_000)).toBe("retrying now");
    expect(retryWords(5_000, 9_000)).toBe("retrying now");
    expect(retryWords(null, 0)).toBeNull();
    expect(retryWords(undefined, 0)).toBeNull();
    expect(describeSync(offline(3, null), 0)).toBe("Offline — 3 changes waiting");
  });
});
