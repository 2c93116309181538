/**
 * Sharing needs a team relay. A document marked shared while none is configured would sync, unasked, to whatever
 * relay someone configures later, so every way in (the app API's createDocument and shareDocument, MCP's
 * create_document) refuses it with 'no-relay' and a sentence saying what to do instead.
 * What must stay true: "a relay is configured" is the relay address in Settings (SettingsService), the same fact
 * the relay link follows and that makes new documents shared by default; a private document can still be shared
 * once one is configured; a refusal changes nothing.
 */
import { ChopinError } from "../../shared/errors.js";

export type ShareRequest = "create-shared" | "share" | "team-copy";

const SENTENCES: Record<ShareRequest, string> = {
  "create-shared":
    "No team relay is configured, so a shared document cannot be created: configure a team relay in Settings, or create the document private (it can be shared once a relay is set up).",
  share: "No team relay is configured, so this document cannot be shared yet: configure a team relay in Settings first; it stays private until then.",
  "team-copy":
    "No team relay is configured, so there is no team copy to fetch: configure the team relay in Settings first; the damaged copy stays as it is until then.",
};

/** Throws 'no-relay' when sharing is asked for and `relayUrl` (the Settings relay address) is not set. */
export function requireRelayToShare(relayUrl: string | null, request: ShareRequest): void {
  if (relayUrl !== null && relayUrl !== "") return;
  throw new ChopinError("no-relay", SENTENCES[request]);
}
