/**
 * After joining a team, documents written before stay private (sharing is never done silently): this hint says how
 * many there are and how to share one, so a person who just joined does not wonder why teammates cannot see them.
 * It shows only with a relay configured, while the live list holds private documents, until dismissed for that relay
 * (the dismissal is kept in the page's storage, per relay address).
 */
import { useState } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { pageStorage } from "../state/last-open.js";

const DISMISSED_PREFIX = "chopin.privateHintDismissed:";

export function privateHintWords(count: number): string {
  const docs = count === 1 ? "1 document is" : `${count} documents are`;
  return `${docs} private to this device: your team cannot see ${count === 1 ? "it" : "them"}. To share one, use its menu (⋯) → Share with team.`;
}

export function PrivateDocumentsHint() {
  const { documents, session } = useServices();
  const relayUrl = useStore(session, (s) => s.settings?.relayUrl ?? null);
  const privateCount = useStore(documents, (s) => (s.showArchived || s.query ? 0 : s.documents.filter((d) => !d.shared).length));
  const storage = pageStorage();
  const key = relayUrl ? DISMISSED_PREFIX + relayUrl : null;
  const [dismissed, setDismissed] = useState(() => (key ? storage?.getItem(key) === "1" : false));
  const dismissedNow = dismissed || (key !== null && storage?.getItem(key) === "1");
  if (!relayUrl || privateCount === 0 || dismissedNow) return null;
  return (
    <div className="sidebar-hint" role="note" aria-label="Private documents">
      <p>{privateHintWords(privateCount)}</p>
      <button
        type="button"
        className="link-button"
        onClick={() => {
          try {
            if (key) storage?.setItem(key, "1");
          } catch {
            // Storage refused: the hint goes for this window only.
          }
          setDismissed(true);
        }}
      >
        Got it
      </button>
    </div>
  );
}
