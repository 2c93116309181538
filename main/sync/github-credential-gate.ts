/**
 * Whether the person's GitHub sign-in may be presented to a relay. A GitHub user token opens the person's GitHub
 * account to whoever holds it, so it goes only to a relay that asks for GitHub admission (GET /v1/admission says
 * "github"), and only over an encrypted connection (wss://) or to this computer (loopback), never over plain ws://
 * to another host where anyone on the path could read it. A relay token is the relay's own and is not judged here.
 *
 * What must stay true: the transport check runs before anything is sent; a relay that does not say it takes GitHub
 * sign-ins never receives the token; every refusal is a sentence saying what to do instead.
 */
import type { ErrorShape } from "../../shared/errors.js";

/** The credential the relay link presents: the relay's own token, or the person's GitHub sign-in. */
export interface RelayCredential {
  kind: "relay-token" | "github";
  token: string;
}

/** Whether `url` names this computer (127.0.0.0/8, ::1, localhost). */
export function isLoopbackAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || host === "::1") return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** Why a GitHub sign-in may not go to the relay at `url` over its transport, or null when it may. */
export function githubTransportRefusal(url: string): ErrorShape | null {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return { code: "invalid-input", message: `"${url}" is not a relay address.` };
  }
  if (protocol === "wss:" || isLoopbackAddress(url)) return null;
  return {
    code: "unauthorized",
    message: `Chopin sends your GitHub sign-in only over an encrypted connection (wss://) or to this computer, and ${url} is neither: use the relay's wss:// address, or add a relay token in Settings.`,
    details: { missing: "secure-transport" },
  };
}

/** What the status says when the relay does not take GitHub sign-ins. */
export function githubNotAdmitted(url: string): ErrorShape {
  return {
    code: "unauthorized",
    message: `The relay at ${url} does not take GitHub sign-ins, so Chopin did not send yours: add the relay token your team's admin gave you in Settings.`,
    details: { missing: "relay-token" },
  };
}
