/**
 * What Settings says after a save that changed the relay address or token: the outcome of joining, followed live,
 * not "Settings saved." in green while the relay refuses the token behind the dialog (UX audit). Derived from the
 * core's sync status for the saved address; a status still about another address (the core has not switched yet)
 * reads as connecting.
 */
import type { SyncStatus } from "../../../shared/api.js";

export interface RelayCheck {
  kind: "ok" | "busy" | "error";
  text: string;
}

export function relayCheck(sync: SyncStatus | null, savedRelayUrl: string | null): RelayCheck | null {
  if (savedRelayUrl === null) return null;
  if (!sync || sync.relayUrl !== savedRelayUrl) return { kind: "busy", text: "Settings saved. Joining the team…" };
  switch (sync.state) {
    case "connected":
      return { kind: "ok", text: "Settings saved. Connected to the team relay." };
    case "connecting":
    case "reconnecting":
      return { kind: "busy", text: "Settings saved. Joining the team…" };
    case "local-only":
      return null;
    case "offline":
      return { kind: "error", text: `Saved, but the relay cannot be reached: ${sync.lastError?.message ?? "it did not answer"}` };
    case "unauthorized":
      // Nothing was sent to the relay yet: say what is missing rather than that the relay refused.
      if (lacksCredential(sync)) return { kind: "error", text: "Saved. To join the team, add your relay token (or sign in with GitHub, if your team uses it)." };
      return { kind: "error", text: `Saved, but the relay did not let this device in: ${sync.lastError?.message ?? "the token was refused."}` };
  }
}

/** A relay address is set but there is neither a relay token nor a GitHub sign-in to present (the core's words). */
export function lacksCredential(sync: SyncStatus | null): boolean {
  return sync?.state === "unauthorized" && sync.lastError?.details?.missing === "credential";
}
