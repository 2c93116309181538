import { describe, expect, it } from "vitest";
import type { SyncStatus } from "../../../shared/api.js";
import { relayCheck } from "./relay-check.js";

const status = (state: SyncStatus["state"], relayUrl: string | null, message?: string): SyncStatus => ({
  state,
  relayUrl,
  pendingChanges: 0,
  lastError: message ? { code: "unauthorized", message } : null,
});

describe("relayCheck", () => {
  it("follows joining the saved relay to its outcome", () => {
    expect(relayCheck(status("connecting", "ws://r"), "ws://r")).toEqual({ kind: "busy", text: "Settings saved. Joining the team…" });
    expect(relayCheck(status("connected", "ws://r"), "ws://r")).toEqual({ kind: "ok", text: "Settings saved. Connected to the team relay." });
    expect(relayCheck(status("unauthorized", "ws://r", "The relay refused the token: it is wrong or was revoked."), "ws://r")).toEqual({
      kind: "error",
      text: "Saved, but the relay did not let this device in: The relay refused the token: it is wrong or was revoked.",
    });
    expect(relayCheck(status("offline", "ws://r", "Cannot reach the relay."), "ws://r")?.kind).toBe("error");
  });

  it("says what is missing when there is nothing to sign in with, not that the relay refused", () => {
    const missing: SyncStatus = { ...status("unauthorized", "ws://r", "Chopin has nothing to sign in…"), lastError: { code: "unauthorized", message: "Chopin has nothing to sign in…", details: { missing: "credential" } } };
    expect(relayCheck(missing, "ws://r")).toEqual({
      kind: "error",
      text: "Saved. To join the team, add your relay token (or sign in with GitHub, if your team uses it).",
    });
  });

  it("reads a status about another address (the core not switched yet) as joining, and says nothing without a relay", () => {
    expect(relayCheck(status("connected", "ws://old"), "ws://new")?.kind).toBe("busy");
    expect(relayCheck(null, "ws://new")?.kind).toBe("busy");
    expect(relayCheck(status("local-only", null), null)).toBeNull();
  });
});
