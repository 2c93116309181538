/**
 * This page's outbox: the store over the origin's localStorage and this page load's window id. The outbox is per
 * origin (host mode: 127.0.0.1:<ui-port>; Electron: app://), so any window of the same origin can replay what another
 * kept. What must stay true: a page without usable localStorage (switched off, or a test environment) gets null and
 * simply keeps nothing; asking never throws.
 */
import type { DocHandle, Repo } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import type { CoreLink } from "../bridge/connect.js";
import { OutboxKeeper, type OutboxKeeperOptions } from "./outbox-keeper.js";
import { startOutboxReplay, type ReplayApi } from "./outbox-replay.js";
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

/** A keeper for an open document of this page; null when the page has no usable storage. */
export function keepWindowEdits(
  handle: DocHandle<PlanDocument>,
  options: Pick<OutboxKeeperOptions, "onProblem" | "waitSaved">,
): OutboxKeeper | null {
  const store = windowOutbox();
  return store ? new OutboxKeeper({ handle, store, windowId: WINDOW_ID, ...options }) : null;
}

/** Replays what any window of this origin kept, now and whenever the link opens again; returns the stop. */
export function replayWindowOutbox(repo: Repo, api: ReplayApi, coreLink: CoreLink | undefined, notify: (message: string) => void): () => void {
  const store = windowOutbox();
  return store ? startOutboxReplay({ repo, api, store, coreLink, notify }) : () => undefined;
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
