/**
 * The peer id an app core presents to the relay: "<handle>:<device>". The relay gives a peer id with a handle prefix
 * to that handle alone, so carrying the signed-in user in it lets one device sign in as another user (a new id, no
 * binding to take over) while nobody can present another user's id. The device part is the Repo's own peer id
 * (main/settings/identity.ts); the handle is what the relay says the credential belongs to (GET /v1/team).
 * What must stay true: the device part never contains ":" (the relay splits at the last one; a GitHub identity
 * "gh:<login>" as handle has one of its own).
 */
import { MAX_PEER_ID_CHARS } from "../../shared/limits.js";

/** Whether `peerId` already names its user ("<handle>:<device>"), so it goes on the wire unchanged. */
export function namesUser(peerId: string): boolean {
  return peerId.includes(":");
}

/** "<handle>:<device>", or null when `handle` cannot prefix a peer id. */
export function wirePeerId(handle: string, device: string): string | null {
  const id = `${handle}:${device}`;
  if (handle.length === 0 || handle.endsWith(":") || device.length === 0 || namesUser(device) || id.length > MAX_PEER_ID_CHARS) return null;
  return id;
}
