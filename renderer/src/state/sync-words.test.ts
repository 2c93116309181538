import { describe, expect, it } from "vitest";
import type { SyncStatus } from "../../../shared/api.js";
import { describeSync } from "./sync-words.js";

const status = (state: SyncStatus["state"], pendingChanges = 0): SyncStatus => ({ state, pendingChanges, relayUrl: null, lastError: null });

describe("describeSync", () => {
  it("names every state the core reports, in words", () => {
    expect(describeSync(status("local-only"))).toBe("Local only");
    expect(describeSync(status("connected"))).toBe("Connected");
    expect(describeSync(status("connected", 2))).toBe("Connected — sending 2 changes");
    expect(describeSync(status("offline", 3))).toBe("Offline — 3 changes waiting");
    expect(describeSync(status("offline", 1))).toBe("Offline — 1 change waiting");
    expect(describeSync(status("offline", 0))).toBe("Offline — 0 changes waiting");
    expect(describeSync(status("reconnecting"))).toBe("Reconnecting…");
    expect(describeSync(status("connecting"))).toBe("Connecting…");
    expect(describeSync(status("unauthorized"))).toBe("Relay refused the token");
    expect(describeSync(null)).toBe("Checking…");
  });
});
