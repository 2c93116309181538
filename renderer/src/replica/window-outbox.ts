/**
 * This page's outbox as the page sees it: the store over the origin's localStorage (which the replica host writes
 * through the page; replica-link/replica-client.ts) and this page load's window id. The outbox is per origin (host
 * mode: 127.0.0.1:<ui-port>; Electron: app://), so any window of the same origin can replay what another kept.
 * What must stay true: a page without usable localStorage (switched off, or a test environment) gets null and
 * simply keeps nothing; asking never throws.
 */
import { OutboxStore } from "./outbox-store.js";

/** Random per page load: a reload is a new window, and replays what the old one kept. */
export const WINDOW_ID = newWindowId();

let cached: OutboxStore | null | undefined;

export function windowOutbox(): OutboxStore | null {
  if (cached !== undefined) return cached;
  try {
    // Reading the property itself throws where storage is blocked.
    const storage = typeof localStorage === "undefined" ? null : localStorage;
    cached = storage ? new OutboxStore(storage) : null;
  } catch {
    cached = null;
  }
  return cached;
}

/** Titles of the documents with kept edits in this origin (any window's), each once; [] when none or unreadable. */
export function keptDocumentTitles(store: OutboxStore | null = windowOutbox()): string[] {
  try {
    const byDocument = new Map((store?.list() ?? []).map((stored) => [stored.entry.documentId, stored.entry.title]));
    return [...byDocument.values()];
  } catch {
    return [];
  }
}

function newWindowId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
