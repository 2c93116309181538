/**
 * The whole window when Chopin cannot be used from this page at all (no secret, the core refused it, or the shell
 * failed): a sentence that says what happened and what to do instead of an empty shell that looks alive. When edits
 * this browser kept for a core that was unreachable (the window outbox) will be restored by doing what the screen
 * asks, it says so, naming the documents; it never claims that when nothing is kept.
 */
import { useEffect, useState } from "react";
import { CORE_REFUSED_MESSAGE, CORE_RESTARTED_MESSAGE } from "../bridge/socket-bridge.js";
import { lastRefusal } from "../bridge/secret.js";
import { keptDocumentTitles } from "../replica/window-outbox.js";

export function FatalScreen({
  title = "Chopin could not start",
  message,
  whenRestored,
}: {
  title?: string;
  message: string;
  /** How kept edits come back ("when you open …"); without it the screen does not speak of kept edits. */
  whenRestored?: string;
}) {
  const kept = useKeptTitles(whenRestored !== undefined);
  return (
    <main className="fatal" aria-label={title}>
      <h1>{title}</h1>
      <p role="alert">{message}</p>
      {whenRestored !== undefined && kept.length > 0 && <p className="fatal-kept">{keptEditsSentence(kept, whenRestored)}</p>}
    </main>
  );
}

/** The core turned this page's secret away: restarted since this tab linked, or a link that never worked here. */
export function RefusedScreen() {
  const restarted = readRefusal() === "restarted";
  return restarted ? (
    <FatalScreen title="Chopin was restarted" message={CORE_RESTARTED_MESSAGE} whenRestored={NEW_LINK} />
  ) : (
    <FatalScreen title="This link no longer works" message={CORE_REFUSED_MESSAGE} whenRestored={NEW_LINK} />
  );
}

export const NEW_LINK = "as soon as you open Chopin's current link in this browser";

/** "Your unsaved edits to “A” and “B” were kept …", naming at most three documents. */
export function keptEditsSentence(titles: string[], whenRestored: string): string {
  const named = titles.slice(0, 3).map((t) => `“${t}”`);
  const more = titles.length - named.length;
  const list =
    more > 0
      ? `${named.join(", ")} and ${more} more document${more === 1 ? "" : "s"}`
      : named.length > 1
        ? `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`
        : named[0];
  return `Your unsaved edits to ${list} were kept in this browser. They are restored ${whenRestored}.`;
}

/**
 * Read after mount (the editor's keeper writes its last edits as it unmounts, in the same commit) and again whenever
 * another window of this origin changes the outbox.
 */
function useKeptTitles(wanted: boolean): string[] {
  const [titles, setTitles] = useState<string[]>([]);
  useEffect(() => {
    if (!wanted) return;
    const read = () => setTitles(keptDocumentTitles());
    read();
    window.addEventListener("storage", read);
    return () => window.removeEventListener("storage", read);
  }, [wanted]);
  return titles;
}

function readRefusal() {
  try {
    return lastRefusal(window.sessionStorage);
  } catch {
    return null;
  }
}
