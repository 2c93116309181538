/**
 * Warns, while a relay address is typed, when it would carry the relay token and every shared plan unencrypted
 * across a network: ws:// to a host other than this computer (security audit). It is a warning, not a refusal: a relay
 * on a trusted network, or behind a tunnel, may be plain ws:// on purpose.
 */

export const UNENCRYPTED_RELAY_WARNING =
  "This address is not encrypted: the relay token and your shared plans would cross the network readable by anyone on the way. Use wss:// unless the relay runs on this computer or on a network you trust.";

/** Loopback hosts, where ws:// never leaves this computer. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The warning for `typed`, or null when it is encrypted, local, empty or not an address at all (saving says why). */
export function relayUrlWarning(typed: string): string | null {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    return null;
  }
  return url.protocol === "ws:" && !isLoopbackHost(url.hostname) ? UNENCRYPTED_RELAY_WARNING : null;
}
