/**
 * Sharing asks first. It cannot be undone (the document and its whole history go to the team relay, and every member
 * can read and edit it from then on), so both ways in (the header's Share button, the row menu's "Share with team")
 * open one confirmation that names the relay, and only its confirm button shares.
 */
import { useServices, type AppServices } from "../state/app-services.js";

export function shareConfirmation(title: string, relayUrl: string | null): { title: string; message: string; confirmLabel: string } {
  const where = relayUrl ? `the team relay at ${relayUrl}` : "your team's relay";
  return {
    title: "Share with your team?",
    message: `“${title}” and its whole history will sync to ${where}: everyone on that team can read and edit it. Sharing cannot be undone.`,
    confirmLabel: "Share",
  };
}

/** Asks, then shares `doc` on confirmation (the palette's way in; the components use useShareAction). */
export function askToShare({ documents, session, ui }: Pick<AppServices, "documents" | "session" | "ui">, doc: { id: string; title: string }): void {
  const relayUrl = session.getState().settings?.relayUrl ?? null;
  ui.getState().askConfirm({
    ...shareConfirmation(doc.title, relayUrl),
    danger: false,
    onConfirm: () => documents.getState().share(doc.id as never),
  });
}

/** Returns the action that asks, then shares `doc` on confirmation. */
export function useShareAction(): (doc: { id: string; title: string }) => void {
  const services = useServices();
  return (doc) => askToShare(services, doc);
}
