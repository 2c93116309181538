/**
 * This installation's identity on the network: a device peer id made once and kept, and a caret colour derived from it
 * so every device shows the same person in the same colour. The relay sees it as "<handle>:<device>" with the signed-in
 * user's handle (main/sync/wire-peer-id.ts), so the same device may sign in as another user; the plain id is never
 * bound to a user. What must stay true: the id contains no ":" (it is the device part of that wire id).
 */
import { randomUUID, createHash } from "node:crypto";
import type { Database } from "better-sqlite3";
import { getOrCreateSetting } from "../store/settings.js";

const PEER_ID_KEY = "identity.peerId";

/** Accessible caret colours with enough contrast on white. */
const CARET_COLORS = ["#d1495b", "#00798c", "#edae49", "#30638e", "#6a4c93", "#2a9d8f", "#e76f51", "#3d5a80"];

export function loadOrCreatePeerId(db: Database): string {
  return getOrCreateSetting(db, PEER_ID_KEY, () => `device-${randomUUID()}`);
}

export function colorForPeer(peerId: string): string {
  const digest = createHash("sha256").update(peerId).digest();
  return CARET_COLORS[digest[0] % CARET_COLORS.length];
}
