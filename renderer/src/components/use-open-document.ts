/**
 * Opening one document in this window: asks the core for the text snapshot (to paint at once) and for the stored
 * document bytes (to load the replica without a full sync round) in parallel, then hands out the ready handle.
 * A snapshot that came before the document was shown (the documents store waits briefly for it) is there from the
 * first render, so the editor paints it in the same frame as the rest of the document.
 * What must stay true: when a snapshot is shown, a frame is painted before the replica's load starts (that load
 * holds the main thread for as long as Automerge needs); a failed snapshot or bytes request only costs speed, never
 * the open; an answer for a document no longer shown is dropped.
 */
import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import type { DocHandle } from "@automerge/automerge-repo";
import type { DocumentSnapshot } from "../../../shared/api.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { base64ToBytes } from "../replica/base64.js";
import { openDocumentFrom } from "../replica/replica.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { markOpening } from "../state/opening-marks.js";

export interface OpeningState {
  /** undefined while the core has not answered; null when it has no snapshot. */
  snapshot?: DocumentSnapshot | null;
  handle?: DocHandle<PlanDocument>;
  error?: string;
}

/** Resolves after the browser has painted the current DOM (rAF runs before a paint; a posted message after it). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== "function") return void setTimeout(resolve, 0);
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}

export function useOpenDocument(id: string, url: string): OpeningState {
  const { repo, bridge, documents } = useServices();
  const answered = () => {
    const prefetched = documents.getState().opening;
    return prefetched?.id === id ? prefetched.snapshotAnswer : undefined;
  };
  const [state, setState] = useState<OpeningState & { id: string }>(() => ({ id, snapshot: answered() }));
  const saved = useRef<{ id: string; answer: Promise<string | null> } | null>(null);

  useEffect(() => {
    let cancelled = false;
    setState((s) => (s.id === id ? s : { id, snapshot: answered() }));
    // The documents store asked already when it opened this document (and marked the answer's arrival); otherwise
    // (e.g. just created) ask now.
    const prefetched = documents.getState().opening;
    const requests =
      prefetched?.id === id
        ? prefetched
        : {
            snapshot: bridge.api.openSnapshot(id).then((snapshot) => {
              markOpening("snapshot-received");
              return snapshot;
            }, () => null),
            saved: bridge.api.readSavedDocument(id).catch(() => null),
          };
    saved.current = { id, answer: requests.saved };
    void requests.snapshot.then((snapshot) => {
      if (!cancelled) setState((s) => (s.id === id && s.snapshot === undefined ? { ...s, snapshot } : s));
    });
    return () => {
      cancelled = true;
    };
  }, [bridge, documents, id]);

  // Runs after the commit that painted the snapshot (the editor builds it in a layout effect), so waiting one more
  // frame puts the snapshot on screen before the load takes the main thread.
  const asked = state.id === id && state.snapshot !== undefined;
  const painted = asked && state.snapshot !== null;
  useEffect(() => {
    if (!asked) return;
    let cancelled = false;
    void (async () => {
      if (painted) await afterNextPaint();
      const bytes = saved.current?.id === id ? await saved.current.answer : null;
      if (cancelled) return;
      markOpening("replica-load-start");
      const handle = await openDocumentFrom(repo, url, bytes ? decode(bytes) : null);
      markOpening("replica-ready");
      // Rendered at once, not scheduled: after the load held the main thread for a second or more, a scheduled render
      // queued behind everything that piled up meanwhile (the core's sync messages among them), and the editor became
      // editable ~70 ms after the handle was ready; flushSync binds it in this task (passive effects of a sync update
      // are flushed with its commit), ~10 ms after (cold-open bench, steps replica-ready -> editable).
      if (!cancelled) flushSync(() => setState((s) => (s.id === id ? { ...s, handle } : s)));
    })().catch((error: unknown) => {
      if (!cancelled) setState((s) => (s.id === id ? { ...s, error: describeError(error) } : s));
    });
    return () => {
      cancelled = true;
    };
  }, [repo, id, url, asked, painted]);

  return state.id === id ? state : {};
}

function decode(saved: string): Uint8Array | null {
  try {
    return base64ToBytes(saved);
  } catch {
    return null;
  }
}
