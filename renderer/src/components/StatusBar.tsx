/**
 * The bottom bar: sync status and save status. The sync status is a polite live region; the save status is read out
 * only when saving fails or recovers (useSaveAnnouncement), not at every keystroke. Both only repeat what the core
 * reported.
 */
import { useEffect, useRef, useState } from "react";
import { useStore } from "zustand";
import { useServices } from "../state/app-services.js";
import { describeSync, retryWords, syncTone } from "../state/sync-words.js";
import type { SaveState } from "../state/save-tracker.js";
import { formatWhen } from "../format-time.js";
import { lacksCredential } from "./relay-check.js";

/** The sync status while this window cannot hear the core. */
export const SYNC_UNKNOWN_TEXT = "Sync status unknown";

export function describeSave(save: SaveState, hasDocument: boolean): string {
  if (!hasDocument) return "";
  switch (save.kind) {
    case "unknown":
      return "";
    case "opening":
      return "Opening…";
    case "saving":
      return "Saving…";
    case "saved":
      return "Saved";
    case "failed":
      return `Not saved yet — ${save.message}`;
  }
}

/** The current time, ticking once a second while a retry is pending, so "retrying in Xs" counts down. */
function useRetryClock(nextRetryAt: number | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (nextRetryAt === null || nextRetryAt === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [nextRetryAt]);
  return now;
}

/**
 * What the save status says to a screen reader: only what a person must hear. "Saving… Saved" on every keystroke
 * would be read out over their typing, so the live words change only when saving fails (with why), and when it
 * works again after a failure.
 */
export function useSaveAnnouncement(save: SaveState, hasDocument: boolean): string {
  const [announced, setAnnounced] = useState("");
  const failedBefore = useRef(false);
  useEffect(() => {
    if (!hasDocument) {
      failedBefore.current = false;
      setAnnounced("");
    } else if (save.kind === "failed") {
      failedBefore.current = true;
      setAnnounced(describeSave(save, true));
    } else if (save.kind === "saved" && failedBefore.current) {
      failedBefore.current = false;
      setAnnounced("Saved again");
    }
  }, [save, hasDocument]);
  return announced;
}

/** While the core is away: one message for as long as it stays away (flipping words interrupt a screen reader). */
export function coreDownWords(core: string, everOpen: boolean): string {
  return everOpen || core !== "connecting" ? "Lost the connection to Chopin — reconnecting…" : "Connecting to Chopin…";
}

export function StatusBar() {
  const { connection, editor, documents, session, ui } = useServices();
  const sync = useStore(connection, (s) => s.sync);
  const core = useStore(connection, (s) => s.core);
  const save = useStore(editor, (s) => s.save);
  const hasDocument = useStore(documents, (s) => s.selected !== null);
  const identity = useStore(session, (s) => s.identity);
  // With the link to the core down, the last sync status heard may no longer be true: say it is unknown instead.
  const syncKnown = core === "open";
  // The countdown ticks every second: shown beside the live region's words, not in them, or a screen reader would
  // read the status out every second.
  const now = useRetryClock(syncKnown && sync?.state === "offline" ? sync.nextRetryAt : null);
  const syncText = syncKnown ? describeSync(sync, null) : SYNC_UNKNOWN_TEXT;
  const retryText = syncKnown && sync?.state === "offline" ? retryWords(sync.nextRetryAt, now) : null;
  const saveText = describeSave(save, hasDocument);
  const saveAnnouncement = useSaveAnnouncement(save, hasDocument);
  const everOpen = useRef(false);
  if (core === "open") everOpen.current = true;
  const syncDetail = !syncKnown
    ? undefined
    : (sync?.lastError?.message ?? (sync?.relayUrl ? `Relay: ${sync.relayUrl}` : undefined));

  return (
    <footer className="statusbar">
      <div className="status-item status-sync" role="status" aria-live="polite" aria-label="Sync status" title={syncDetail}>
        <span className={`status-dot tone-${syncKnown ? syncTone(sync) : "neutral"}`} aria-hidden="true" />
        <span>{syncText}</span>
        {retryText && <span aria-hidden="true"> · {retryText}</span>}
        {/* The separator is for the words a screen reader reads ("…team. Your access…"); the flex gap spaces it on screen. */}
        {syncKnown && sync?.lastError && sync.state !== "connected" && <span className="status-detail"><span className="visually-hidden">. </span>{sync.lastError.message}</span>}
      </div>
      {/* The way into a team from where "Local only" (or a missing token) is said: Settings holds the relay address and token. */}
      {syncKnown && (sync?.state === "local-only" || lacksCredential(sync)) && (
        <button type="button" className="link-button status-join" onClick={() => ui.getState().openDialog("settings", "relay")}>
          Join a team…
        </button>
      )}
      {core !== "open" && (
        <div className="status-item status-warning" role="alert">
          {coreDownWords(core, everOpen.current)}
        </div>
      )}
      <div className="status-spacer" />
      {/* Seen, not read out as it changes (aria-live off): the words a screen reader hears are in the region below. */}
      <div
        className={`status-item save-${save.kind}`}
        role="status"
        aria-live="off"
        aria-label="Save status"
        title={save.kind === "saved" ? `Saved ${formatWhen(save.at)}` : undefined}
      >
        {saveText}
      </div>
      <div className="visually-hidden" aria-live="polite" data-testid="save-announcement">
        {saveAnnouncement}
      </div>
      {identity && (
        <div className="status-item status-identity" title="Your name as others see it">
          <span className="identity-dot" style={{ backgroundColor: identity.color }} aria-hidden="true" />
          {identity.displayName}
        </div>
      )}
    </footer>
  );
}
