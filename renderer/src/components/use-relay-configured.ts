/**
 * Whether a team relay is configured (the relay address in Settings, as the core decides it). Sharing is offered as
 * working only then: without one the core refuses it ('no-relay'), so the share actions stay visible but disabled,
 * saying why. What must stay true: settings not loaded yet count as "no relay" (never offer what may be refused).
 */
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";

/** Why sharing is unavailable without a relay (announced as the share action's description, shown on hover). */
export const NO_RELAY_REASON = "Sharing needs a team relay: set one up in Settings first. Until then documents stay private.";

export function useRelayConfigured(): boolean {
  const { session } = useServices();
  return useStore(session, (s) => Boolean(s.settings?.relayUrl));
}
