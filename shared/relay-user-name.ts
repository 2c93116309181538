/**
 * How the app names a relay identity to people (the relay's own forms: sync-relay/authenticate.ts, users.ts): the
 * handle "gh:alice" of a GitHub sign-in is alice, a relay user's handle is itself; a wire peer id "<handle>:<device>"
 * is split at its last ':' (a GitHub handle carries one of its own).
 */
const GITHUB_HANDLE_PREFIX = "gh:";

export function nameOfRelayHandle(handle: string): string {
  return handle.startsWith(GITHUB_HANDLE_PREFIX) ? handle.slice(GITHUB_HANDLE_PREFIX.length) : handle;
}

/** The device part of a wire peer id, or the id itself when it names no handle. */
export function deviceOfWirePeer(peerId: string): string {
  const at = peerId.lastIndexOf(":");
  return at < 0 ? peerId : peerId.slice(at + 1);
}
