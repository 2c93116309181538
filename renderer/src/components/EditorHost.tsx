/**
 * Hosts the CodeMirror editor for one document and wires it to the rest of the window: presence (who is here,
 * remote carets), the truthful save state (SaveTracker on every heads change), the outline, and edit metadata
 * (authors, updatedAt). While the replica is still loading, the core's text snapshot is shown read-only in the same
 * EditorView that later becomes the live editor (the save indicator says "Opening…"). An edit the editor refused
 * because the body would outgrow its limit is said in words in a live region beside it.
 * What must stay true: one editor per document; it is editable only once bound to the ready handle and while the
 * plan is not archived (the lock follows `readOnly` live, so an archive by a teammate stops typing at once); everything
 * it started is stopped when it goes away.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { DocHandle } from "@automerge/automerge-repo";
import type { DocumentSnapshot } from "../../../shared/api.js";
import { EditorView } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { useServices } from "../state/app-services.js";
import { SaveTracker } from "../state/save-tracker.js";
import { createPlanEditor } from "../editor/plan-editor.js";
import { createOpeningEditor, type OpeningEditor } from "../editor/opening-editor.js";
import { bindPresence, type PresenceBinding } from "../editor/presence.js";
import { extractOutline } from "../editor/outline.js";
import { recordEditMetadata } from "../editor/edit-metadata.js";
import { bodySizeRefused, refusalWords } from "../editor/body-size-limit.js";
import { isReconcileTx } from "@automerge/automerge-codemirror/dist/plugin.js";
import { useStore } from "zustand";
import { markOpening } from "../state/opening-marks.js";
import { keepWindowEdits } from "../replica/window-outbox.js";
import { editLock } from "../editor/edit-lock.js";

const OUTLINE_DEBOUNCE_MS = 150;
const FALLBACK_COLOR = "#5b6b7f";

export function EditorHost({
  documentId,
  handle,
  snapshot,
  readOnly = false,
}: {
  documentId: string;
  /** Ready handle from the replica; absent while it loads. */
  handle?: DocHandle<PlanDocument>;
  /** The core's snapshot, painted read-only until the handle is ready. */
  snapshot?: DocumentSnapshot | null;
  /** Locks the bound editor against edits (an archived plan). */
  readOnly?: boolean;
}) {
  const { bridge, connection, documents, editor, session } = useServices();
  const identity = useStore(session, (s) => s.identity);
  const parentRef = useRef<HTMLDivElement>(null);
  const presenceRef = useRef<PresenceBinding | null>(null);
  const openingRef = useRef<OpeningEditor | null>(null);
  const identityRef = useRef(identity);
  identityRef.current = identity;
  const lock = useRef(editLock()).current;
  const readOnlyRef = useRef(readOnly);
  readOnlyRef.current = readOnly;
  const liveViewRef = useRef<EditorView | null>(null);
  /** Why the last edit was refused; cleared by the next edit of this window that goes through. */
  const [refusal, setRefusal] = useState<string | null>(null);

  // A layout effect: the snapshot must be in the DOM in the same frame React commits it (the replica's load waits
  // for that frame to be painted before it starts).
  useLayoutEffect(() => {
    const parent = parentRef.current;
    if (!parent || handle || !snapshot || openingRef.current) return;
    const opening = createOpeningEditor(parent, snapshot.markdown, snapshot.heads);
    openingRef.current = opening;
    markOpening("snapshot-shown");
    editor.setState({ view: opening.view, save: { kind: "opening" }, outline: extractOutline(snapshot.markdown) });
  }, [handle, snapshot, editor]);

  // The read-only editor of a document that never became ready goes with the component.
  useEffect(
    () => () => {
      const opening = openingRef.current;
      if (!opening) return;
      openingRef.current = null;
      opening.view.destroy();
      editor.getState().reset(null);
    },
    [editor],
  );

  useEffect(() => {
    const parent = parentRef.current;
    if (!parent || !handle) return;
    const me = identityRef.current;
    const presence = bindPresence({
      handle: handle as DocHandle<unknown>,
      user: { name: me?.displayName || "Someone", color: me?.color || FALLBACK_COLOR, device: me?.peerId },
      onPeers: (peers) => editor.setState({ peers }),
    });
    presenceRef.current = presence;
    // Edits the core has not confirmed are kept in the page's storage until it does (replica/outbox-*.ts).
    const keeper = keepWindowEdits(handle, {
      onProblem: (notice) => notice && documents.getState().showNotice(notice, documentId),
      waitSaved: (heads) => bridge.api.waitSaved(documentId, heads),
    });
    const tracker = new SaveTracker({
      documentId,
      waitSaved: (id, heads) => bridge.api.waitSaved(id, heads),
      onState: (save) => editor.setState({ save }),
      onConfirmed: (heads) => keeper?.confirmed(heads),
    });
    let outlineTimer: ReturnType<typeof setTimeout> | null = null;
    const extensions = [
      lock.extension(readOnlyRef.current),
      presence.extension,
      recordEditMetadata(handle, () => identityRef.current?.displayName ?? null),
      EditorView.updateListener.of((update) => {
        for (const tr of update.transactions) {
          const refused = tr.effects.find((e) => e.is(bodySizeRefused));
          if (refused) setRefusal(refusalWords(refused.value));
          else if (tr.docChanged && !isReconcileTx(tr)) setRefusal(null);
        }
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged || outlineTimer) return;
        outlineTimer = setTimeout(() => {
          outlineTimer = null;
          editor.setState({ outline: extractOutline(view.state.doc.toString()) });
        }, OUTLINE_DEBOUNCE_MS);
      }),
    ];
    // The snapshot's editor becomes the live one (no remount); without a snapshot the editor starts live.
    const opening = openingRef.current;
    openingRef.current = null;
    if (opening) opening.bind(handle, extensions);
    const view = opening ? opening.view : createPlanEditor({ parent, handle, extensions });
    liveViewRef.current = view;
    markOpening("editable");
    const onHeads = () => {
      tracker.headsChanged(handle.heads());
      keeper?.headsChanged();
    };
    handle.on("heads-changed", onHeads);
    // Confirms the heads the window opened with, so "Saved" is known rather than assumed.
    tracker.headsChanged(handle.heads());
    editor.setState({ view, documentId, outline: extractOutline(view.state.doc.toString()) });
    // Enter in the title, or the palette opening this plan, may have asked for the body before it was editable.
    editor.getState().bodyBecameEditable();
    return () => {
      handle.off("heads-changed", onHeads);
      if (outlineTimer) clearTimeout(outlineTimer);
      tracker.stop();
      keeper?.stop();
      presence.stop();
      presenceRef.current = null;
      liveViewRef.current = null;
      view.destroy();
      editor.getState().reset(null);
    };
  }, [handle, documentId, bridge, editor, documents]);

  useEffect(() => {
    if (!liveViewRef.current) return;
    lock.set(liveViewRef.current, readOnly);
    // A restore (the banner's button) may have asked for the body while the plan was still locked.
    if (!readOnly) editor.getState().bodyBecameEditable();
  }, [readOnly, lock, editor]);

  useEffect(() => {
    if (identity) presenceRef.current?.setUser({ name: identity.displayName, color: identity.color, device: identity.peerId });
  }, [identity]);

  // Teammates reach this window through the core's relay link: with it down (offline, refused), none can be here.
  const teamReachable = useStore(connection, (s) => s.sync === null || s.sync.state === "connected");
  useEffect(() => {
    presenceRef.current?.setTeamReachable(teamReachable);
  }, [teamReachable, handle]);

  return (
    <>
      <div className="editor-host" ref={parentRef} />
      {/* Always in the page (empty when there is nothing to say), so a screen reader announces the sentence when it appears. */}
      <p className="editor-refusal" role="status" aria-live="polite">
        {refusal}
      </p>
    </>
  );
}
