/**
 * The window's notice: the last failure, in words, with a way to dismiss it. When the core refused a plan because
 * its stored copy cannot be read ('storage-failure' with details.damaged), the notice also offers a way out: a shared
 * plan can be fetched again from the team (the core sets the unreadable bytes aside; the plan stays on everyone's
 * list), and any damaged plan can be removed from this device: it cannot be archived (archiving writes to it), so
 * without this it stayed in the list for good. The removal is the ordinary delete, which the core allows unarchived
 * for a damaged plan and which keeps its bytes aside for recovery. It asks first, as every delete does (ConfirmDialog).
 */
import { useStore } from "zustand";
import type { DocumentId } from "../../../shared/api.js";
import { useServices, type AppServices } from "../state/app-services.js";
import { Icon } from "./Icons.js";

export function NoticeBanner() {
  const services = useServices();
  const { documents } = services;
  const notice = useStore(documents, (s) => s.notice);
  const damaged = useStore(documents, (s) => (s.noticeDamaged ? s.noticeAbout : null));
  const damagedShared = useStore(documents, (s) => damaged !== null && s.documents.some((d) => d.id === damaged && d.shared));
  if (!notice) return null;
  return (
    <div className="notice" role="alert">
      <span>{notice}</span>
      {damaged !== null && damagedShared && (
        <button type="button" className="button button-small" onClick={() => void documents.getState().restoreFromTeam(damaged)}>
          Get the team’s copy
        </button>
      )}
      {damaged !== null && (
        <button type="button" className="button button-small button-danger" onClick={() => askToRemoveDamaged(services, damaged)}>
          Remove from this device
        </button>
      )}
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => documents.getState().dismissNotice()}>
        <Icon name="close" />
      </button>
    </div>
  );
}

/** Asks, then removes the damaged plan `id` (the core sets its stored bytes aside instead of destroying them). */
export function askToRemoveDamaged({ documents, ui }: Pick<AppServices, "documents" | "ui">, id: DocumentId): void {
  const listed = documents.getState().documents.find((d) => d.id === id);
  ui.getState().askConfirm({
    title: "Remove damaged document?",
    message: removeDamagedWords(listed?.title, listed?.shared === true),
    confirmLabel: "Remove",
    onConfirm: () => documents.getState().remove(id),
  });
}

/** What removing does, truthfully: like a delete, a shared plan also leaves the team's list (deleteWords). */
export function removeDamagedWords(title: string | undefined, shared: boolean): string {
  const name = title ? `“${title}”` : "This document";
  const kept = "Its unreadable stored copy is kept aside in this device's Chopin database for recovery.";
  if (!shared) return `${name} will be removed from this device. ${kept}`;
  return (
    `${name} will be removed from this device and from the team's list. ${kept} Teammates who already have it keep ` +
    "their copies, as does the team relay."
  );
}
