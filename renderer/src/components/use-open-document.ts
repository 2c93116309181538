/**
 * Opening one document in this window: asks the core for the text snapshot (to show, and to type into, at once) and
 * for the stored document bytes (which the window's replica host loads in its worker, off this thread; EditorHost
 * opens the session with both).
 * A snapshot that came before the document was shown (the documents store waits briefly for it) is there from the
 * first render, so the editor paints it in the same frame as the rest of the document.
 * What must stay true: a failed snapshot or bytes request only costs speed, never the open; an answer for a document
 * no longer shown is dropped.
 */
import { useEffect, useState } from "react";
import type { DocumentSnapshot } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { markOpening } from "../state/opening-marks.js";

export interface OpeningState {
  /** undefined while the core has not answered; null when it has no snapshot. */
  snapshot?: DocumentSnapshot | null;
  /** The core's stored bytes of the document (base64), or null; asked for at once. */
  saved?: Promise<string | null>;
}

export function useOpenDocument(id: string): OpeningState {
  const { bridge, documents } = useServices();
  // What the documents store asked for when it opened this document, there from the first render when it came.
  const askedAlready = (): OpeningState => {
    const opening = documents.getState().opening;
    return opening?.id === id ? { snapshot: opening.snapshotAnswer, saved: opening.saved } : {};
  };
  const [state, setState] = useState<OpeningState & { id: string }>(() => ({ id, ...askedAlready() }));

  useEffect(() => {
    let cancelled = false;
    setState((s) => (s.id === id ? s : { id, ...askedAlready() }));
    // The documents store asked already when it opened this document (and marked the answer's arrival); otherwise
    // (e.g. just created) ask now.
    const prefetched = documents.getState().opening;
    const requests =
      prefetched?.id === id
        ? prefetched
        : {
            snapshot: bridge.api.openSnapshot(id).then(
              (snapshot) => {
                markOpening("snapshot-received");
                return snapshot;
              },
              () => null,
            ),
            saved: bridge.api.readSavedDocument(id).catch(() => null),
          };
    setState((s) => (s.id === id && s.saved !== requests.saved ? { ...s, saved: requests.saved } : s));
    void requests.snapshot.then((snapshot) => {
      if (!cancelled) setState((s) => (s.id === id && s.snapshot === undefined ? { ...s, snapshot } : s));
    });
    return () => {
      cancelled = true;
    };
  }, [bridge, documents, id]);

  return state.id === id ? state : {};
}
