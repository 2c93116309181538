/**
 * Whether this window's link to the core is open right now (always, in Electron). Actions that change data are
 * disabled while it is not: the bridge refuses such calls at once and never replays them, so a click made then would
 * only produce an error.
 */
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";

/** Why an action that changes data is unavailable while the link is down (shown on hover). */
export const CORE_DOWN_REASON = "Not available while Chopin's core is unreachable — it reconnects by itself.";

export function useCoreReachable(): boolean {
  const { connection } = useServices();
  return useStore(connection, (s) => s.core === "open");
}
