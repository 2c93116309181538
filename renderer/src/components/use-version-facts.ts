/**
 * What the viewed version is among the document's versions now: the latest or not (nothing to restore then), who
 * wrote after it (a restore takes their changes out, so it names them first), and the version before it (the view
 * marks what this one changed against it). Derived from the current list each time it is read again, never kept
 * from the moment the version was opened (UX audit: a teammate wrote, the list showed a newer version, and the banner
 * still said "This is the current version" with no way to restore).
 * What must stay true: the viewed version is known by its id; the text compared against is the version before it
 * in the list as it is now.
 */
import { useEffect, useMemo } from "react";
import type { VersionEntry } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import type { ViewedVersion } from "../state/ui-store.js";

export interface VersionFacts {
  latest: boolean;
  laterAuthors: string[];
  /** The version before it, or null for the first. */
  previousId: string | null;
  /** The heads of the newest version listed: a restore is made as of them (teammates' later writes are merged). */
  basis: string[] | null;
}

export function versionFacts(versions: readonly VersionEntry[], version: { id: string; at: number }): VersionFacts {
  const index = versions.findIndex((v) => v.id === version.id);
  // Not listed any more: its author wrote on, and its changes now begin a longer version (an id names the heads a
  // version ends at). Something came after it, so it is not the latest; time tells what is later or earlier.
  const later = index >= 0 ? versions.slice(0, index) : versions.filter((v) => v.at > version.at);
  const before = index >= 0 ? versions[index + 1] : versions.find((v) => v.at < version.at);
  return {
    latest: index === 0,
    laterAuthors: [...new Set(later.flatMap((v) => v.authors))],
    previousId: before?.id ?? null,
    basis: versions[0]?.heads ?? null,
  };
}

/**
 * The facts for `viewing` against `versions` (null until the list is known). When the version before it is no
 * longer the one its changes were marked against, that one is read and the marks follow.
 */
export function useVersionFacts(viewing: ViewedVersion | null, versions: readonly VersionEntry[] | null): VersionFacts | null {
  const { bridge, ui } = useServices();
  const facts = useMemo(() => (viewing && versions ? versionFacts(versions, { id: viewing.content.id, at: viewing.at }) : null), [viewing, versions]);
  const previousId = facts?.previousId;
  useEffect(() => {
    if (!viewing || previousId === undefined || previousId === (viewing.previousId ?? null)) return;
    let live = true;
    const read = previousId === null ? Promise.resolve(null) : bridge.api.readVersion(viewing.documentId, previousId);
    read.then(
      (previous) => {
        // Only onto the same version still being viewed: another may have been opened meanwhile.
        const now = ui.getState().viewingVersion;
        if (!live || now?.content.id !== viewing.content.id || now.documentId !== viewing.documentId) return;
        ui.getState().viewVersion({ ...now, previousId, previousMarkdown: previous?.markdown ?? null });
      },
      // The marks stay against the version read before: the view itself is still true.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [bridge, ui, viewing, previousId]);
  return facts;
}
