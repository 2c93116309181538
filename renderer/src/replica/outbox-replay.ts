/**
 * Replays the window outbox when this window reaches a core: at start (a new tab opened with a new launch's link, a
 * reload) and every time the link comes back. Each kept entry is applied to the document in this window's replica,
 * which syncs it to the core like any edit; the entry is removed only once the core confirmed on disk the heads it
 * names (waitSaved), and only if nobody rewrote it meanwhile.
 * What must stay true:
 * - Applying an entry twice, or one whose changes the document already has, changes nothing (Automerge changes are
 *   content-addressed; a whole saved document merges).
 * - A core that cannot be reached keeps every entry for the next attempt; a document the core no longer has, an entry
 *   that cannot be read, or one the core still cannot confirm after OUTBOX_ENTRY_MAX_AGE_MS is dropped, and the
 *   window says so in words. Nothing stays forever, nothing goes silently.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, Repo } from "@automerge/automerge-repo";
import type { ChopinApi } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { OUTBOX_ENTRY_MAX_AGE_MS } from "../limits.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import type { CoreLink } from "../bridge/connect.js";
import { base64ToBytes } from "./base64.js";
import type { OutboxStore, StoredEntry } from "./outbox-store.js";
import { openDocumentFrom } from "./replica.js";
import { TextAuthority } from "../mirror/text-authority.js";
import type { WireUpdate } from "../mirror/protocol.js";

export type ReplayApi = Pick<ChopinApi, "getDocument" | "readSavedDocument" | "waitSaved">;

export interface ReplayOptions {
  repo: Repo;
  api: ReplayApi;
  store: OutboxStore;
  /** A sentence for the person (an entry that had to be dropped). */
  notify: (message: string) => void;
  maxAgeMs?: number;
  now?: () => number;
  /** How long opening a document for replay may wait for the core (openDocument's default otherwise). */
  openTimeoutMs?: number;
}

/** What one pass did, by document title. */
export interface ReplayReport {
  restored: string[];
  dropped: string[];
  /** Entries left for the next pass (the core could not be reached, or did not confirm yet). */
  kept: number;
}

/** One pass over every kept entry, oldest first. */
export async function replayOutbox(options: ReplayOptions): Promise<ReplayReport> {
  const report: ReplayReport = { restored: [], dropped: [], kept: 0 };
  for (const stored of options.store.list()) {
    const outcome = await replayEntry(options, stored);
    if (outcome === "restored") report.restored.push(stored.entry.title);
    else if (outcome === "dropped") report.dropped.push(stored.entry.title);
    else report.kept++;
  }
  return report;
}

/**
 * Replays at once and again whenever the link to the core opens (without a link, as in Electron, once). Passes never
 * overlap: a reconnect during a pass asks for one more afterwards. Returns the stop.
 */
export function startOutboxReplay(options: ReplayOptions & { coreLink?: CoreLink }): () => void {
  let running = false;
  let again = false;
  let stopped = false;
  const pass = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        await replayOutbox(options).catch((error: unknown) => console.error(error));
      } while (again && !stopped);
    } finally {
      running = false;
    }
  };
  const off = options.coreLink?.on((state) => {
    if (state === "open") void pass();
  });
  void pass();
  return () => {
    stopped = true;
    off?.();
  };
}

type Outcome = "restored" | "dropped" | "kept";

/** Failures that say the link is down, not that the core could not confirm. */
const TRANSIENT = new Set(["core-unavailable", "core-unreachable", "unauthorized"]);

async function replayEntry(options: ReplayOptions, stored: StoredEntry): Promise<Outcome> {
  const { api, store, notify } = options;
  const { entry } = stored;
  const drop = (message: string): Outcome => {
    store.removeIfUnchanged(stored);
    notify(message);
    return "dropped";
  };
  try {
    await api.getDocument(entry.documentId);
  } catch (error) {
    if (codeOf(error) === "not-found") {
      return drop(
        `Your edits to “${entry.title}” made while Chopin was unreachable were not restored: the document is no longer on this device (it was deleted meanwhile).`,
      );
    }
    return "kept";
  }
  let handle: DocHandle<PlanDocument>;
  try {
    handle = await openForReplay(options, entry.documentId);
  } catch {
    return "kept";
  }
  try {
    if (entry.typed) applyTyped(handle, entry.typed);
    else {
      handle.update((doc) =>
        entry.changes
          ? A.applyChanges(doc, entry.changes.map(base64ToBytes))[0]
          : A.loadIncremental(doc, base64ToBytes(entry.document!)),
      );
    }
  } catch {
    return drop(`Your edits to “${entry.title}” made while Chopin was unreachable could not be read back, so they were not restored.`);
  }
  // Typed text became a new change here: the heads to confirm are the document's now.
  const heads = entry.typed ? A.getHeads(handle.doc()) : entry.heads;
  // Changes whose history this replica lacks wait in Automerge's queue; the core cannot confirm them yet either.
  let failure: unknown = null;
  if (A.hasHeads(handle.doc(), heads)) {
    try {
      await api.waitSaved(entry.documentId, heads);
    } catch (error) {
      failure = error;
    }
  } else {
    failure = new ChopinError("timeout", "The document's earlier history has not reached this window.");
  }
  if (failure) {
    // The link went away: nothing was learned about these edits.
    if (TRANSIENT.has(codeOf(failure) ?? "")) return "kept";
    // The core could not confirm them (yet): kept for the next pass, but not forever.
    const age = (options.now ? options.now() : Date.now()) - entry.writtenAt;
    if (age > (options.maxAgeMs ?? OUTBOX_ENTRY_MAX_AGE_MS)) {
      return drop(
        `Your edits to “${entry.title}” made while Chopin was unreachable could not be restored: Chopin still could not save them after ${Math.round(age / 86_400_000)} days.`,
      );
    }
    return "kept";
  }
  store.removeIfUnchanged(stored);
  return "restored";
}

/**
 * Text typed while the document was opening, against the text the editor started from: applied as that editor's
 * edits would have been (text-authority.ts brings the starting text up to the document's and rebases the edits over
 * the difference). Throws when the edits do not fit the text they claim to change.
 */
function applyTyped(handle: DocHandle<PlanDocument>, typed: NonNullable<StoredEntry["entry"]["typed"]>): void {
  let refused = false;
  const authority = new TextAuthority({ baseText: typed.baseText, send: (message) => void (refused ||= message.type === "failed") });
  authority.attach(handle);
  authority.receive({ type: "push", version: 0, updates: [{ clientID: "kept", changes: typed.changes as WireUpdate["changes"] }] });
  authority.detach();
  if (refused) throw new ChopinError("invalid-input", "The kept edits do not fit the text they were typed into.");
}

async function openForReplay(options: ReplayOptions, documentId: string): Promise<DocHandle<PlanDocument>> {
  const cached = options.repo.handles[documentId as never] as DocHandle<PlanDocument> | undefined;
  if (cached?.isReady()) return cached;
  const saved = await options.api.readSavedDocument(documentId).catch(() => null);
  return openDocumentFrom(
    options.repo,
    `automerge:${documentId}`,
    saved ? base64ToBytes(saved) : null,
    options.openTimeoutMs === undefined ? undefined : { timeoutMs: options.openTimeoutMs },
  );
}

function codeOf(error: unknown): string | undefined {
  if (error instanceof ChopinError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
