/**
 * This installation's identity on the network: a peer id made once and kept (the relay binds it to the signed-in
 * user), and a caret colour derived from it so every device shows the same person in the same colour.
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
