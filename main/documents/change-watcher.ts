/**
 * Watches every handle the repo holds and reports changes, local and remote alike. automerge-repo 2.5 emits no
 * event when a handle enters its cache, so handles are attached (a) explicitly by the service, (b) when the repo
 * reports sync metrics for a document (a peer sent or asked for it), and (c) by a periodic sweep. A handle attached
 * late is reported once with `patches: null`, since its first changes happened before anyone listened.
 * Reports are coalesced per microtask so a burst of keystrokes becomes one event.
 */
import type { DocHandle, DocHandleChangePayload, Repo } from "@automerge/automerge-repo";
import type { Patch } from "@automerge/automerge";

export type ChangeListener = (handle: DocHandle<unknown>, patches: Patch[] | null) => void;

/** How often the watcher looks for handles it has not attached yet. */
export const CHANGE_WATCH_SWEEP_MS = 1000;

export interface RepoWatch {
  /** Attaches a handle the caller just created or found; does not report it. */
  track(handle: DocHandle<unknown>): void;
  /** Attaches every cached handle not attached yet, reporting each ready one. */
  sweep(): void;
  /** Detaches a handle the Repo is letting go of (plan-release.ts), so the watcher does not keep it alive. */
  untrack(handle: DocHandle<unknown>): void;
  stop(): void;
}

export function watchRepoChanges(
  repo: Repo,
  onChange: ChangeListener,
  onDelete: (documentId: string) => void,
): RepoWatch {
  const attached = new Map<DocHandle<unknown>, (payload: DocHandleChangePayload<unknown>) => void>();
  const attach = (handle: DocHandle<unknown>, report: boolean) => {
    if (attached.has(handle)) return;
    const listener = (payload: DocHandleChangePayload<unknown>) => onChange(handle, payload.patches);
    handle.on("change", listener);
    attached.set(handle, listener);
    if (report && handle.isReady()) onChange(handle, null);
  };
  const sweep = () => {
    for (const handle of Object.values(repo.handles)) attach(handle, true);
  };
  for (const handle of Object.values(repo.handles)) attach(handle, false);

  const onMetrics = (event: { documentId?: string }) => {
    const handle = event.documentId ? repo.handles[event.documentId as keyof typeof repo.handles] : undefined;
    if (handle && !attached.has(handle)) attach(handle, true);
  };
  const onDeleted = ({ documentId }: { documentId: string }) => {
    for (const [handle, listener] of attached) {
      if (handle.documentId !== documentId) continue;
      handle.off("change", listener);
      attached.delete(handle);
    }
    onDelete(documentId);
  };
  repo.on("doc-metrics", onMetrics as never);
  repo.on("delete-document", onDeleted);
  const timer = setInterval(sweep, CHANGE_WATCH_SWEEP_MS);
  timer.unref?.();

  return {
    track: (handle) => attach(handle, false),
    sweep,
    untrack(handle) {
      const listener = attached.get(handle);
      if (listener) handle.off("change", listener);
      attached.delete(handle);
    },
    stop() {
      clearInterval(timer);
      repo.off("doc-metrics", onMetrics as never);
      repo.off("delete-document", onDeleted);
      for (const [handle, listener] of attached) handle.off("change", listener);
      attached.clear();
    },
  };
}

/** Collects ids and emits them once per microtask. */
export class CoalescedIds {
  #pending = new Set<string>();
  #scheduled = false;
  readonly #flush: (ids: string[]) => void;

  constructor(flush: (ids: string[]) => void) {
    this.#flush = flush;
  }

  add(ids: Iterable<string>): void {
    for (const id of ids) this.#pending.add(id);
    if (this.#scheduled || this.#pending.size === 0) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      const ids = [...this.#pending];
      this.#pending.clear();
      if (ids.length > 0) this.#flush(ids);
    });
  }
}
