/**
 * The open document's versions, newest first, read from the core while `active` and read again (debounced) each
 * time the core says the document changed. One list serves both the history panel and the version being viewed:
 * what the viewed version is to the others (the latest? who wrote after it?) must follow the same list the panel
 * shows, and keep following it when the panel is closed while a version stays open (UX audit: the banner kept
 * saying "the current version" after a teammate wrote).
 * What must stay true: an answer for another document, or one that arrives after deactivation, is never shown.
 */
import { useEffect, useState } from "react";
import type { VersionEntry } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";

/** Changes come a keystroke at a time: the list is read again once they pause this long. */
const REFRESH_DEBOUNCE_MS = 1000;

export interface VersionList {
  /** Null until the first answer (and whenever the list is inactive). */
  versions: VersionEntry[] | null;
  /** Why the last read failed; cleared by the next that works. The last list read stays meanwhile. */
  error: string | null;
}

export function useVersionList(documentId: string, active: boolean): VersionList {
  const { bridge } = useServices();
  const [list, setList] = useState<VersionList>({ versions: null, error: null });

  useEffect(() => {
    setList({ versions: null, error: null });
    if (!active) return;
    let live = true;
    const load = async () => {
      try {
        const versions = await bridge.api.listVersions(documentId);
        if (live) setList({ versions, error: null });
      } catch (e) {
        if (live) setList((prev) => ({ ...prev, error: describeError(e) }));
      }
    };
    void load();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const off = bridge.on("documents-changed", ({ ids }) => {
      if (!ids.includes(documentId) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, REFRESH_DEBOUNCE_MS);
    });
    return () => {
      live = false;
      off();
      if (timer) clearTimeout(timer);
    };
  }, [bridge, documentId, active]);

  return list;
}
