/**
 * Hosts the CodeMirror editor for one ready DocHandle and wires it to the rest of the window: presence (who is
 * here, remote carets), the truthful save state (SaveTracker on every heads change), the outline, and edit metadata (authors, updatedAt).
 * What must stay true: one editor per handle; everything it started is stopped when it goes away.
 */
import { useEffect, useRef } from "react";
import type { DocHandle } from "@automerge/automerge-repo";
import { EditorView } from "@codemirror/view";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { useServices } from "../state/app-services.js";
import { SaveTracker } from "../state/save-tracker.js";
import { createPlanEditor } from "../editor/plan-editor.js";
import { bindPresence, type PresenceBinding } from "../editor/presence.js";
import { extractOutline } from "../editor/outline.js";
import { recordEditMetadata } from "../editor/edit-metadata.js";
import { useStore } from "zustand";

const OUTLINE_DEBOUNCE_MS = 150;
const FALLBACK_COLOR = "#5b6b7f";

export function EditorHost({ documentId, handle }: { documentId: string; handle: DocHandle<PlanDocument> }) {
  const { bridge, editor, session } = useServices();
  const identity = useStore(session, (s) => s.identity);
  const parentRef = useRef<HTMLDivElement>(null);
  const presenceRef = useRef<PresenceBinding | null>(null);
  const identityRef = useRef(identity);
  identityRef.current = identity;

  useEffect(() => {
    const parent = parentRef.current;
    if (!parent) return;
    const me = identityRef.current;
    const presence = bindPresence({
      handle: handle as DocHandle<unknown>,
      user: { name: me?.displayName || "Someone", color: me?.color || FALLBACK_COLOR },
      onPeers: (peers) => editor.setState({ peers }),
    });
    presenceRef.current = presence;
    const tracker = new SaveTracker({
      documentId,
      waitSaved: (id, heads) => bridge.api.waitSaved(id, heads),
      onState: (save) => editor.setState({ save }),
    });
    let outlineTimer: ReturnType<typeof setTimeout> | null = null;
    const view = createPlanEditor({
      parent,
      handle,
      extensions: [
        presence.extension,
        recordEditMetadata(handle, () => identityRef.current?.displayName ?? null),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged || outlineTimer) return;
          outlineTimer = setTimeout(() => {
            outlineTimer = null;
            editor.setState({ outline: extractOutline(view.state.doc.toString()) });
          }, OUTLINE_DEBOUNCE_MS);
        }),
      ],
    });
    const onHeads = () => tracker.headsChanged(handle.heads());
    handle.on("heads-changed", onHeads);
    // Confirms the heads the window opened with, so "Saved" is known rather than assumed.
    tracker.headsChanged(handle.heads());
    editor.setState({ view, outline: extractOutline(view.state.doc.toString()) });
    return () => {
      handle.off("heads-changed", onHeads);
      if (outlineTimer) clearTimeout(outlineTimer);
      tracker.stop();
      presence.stop();
      presenceRef.current = null;
      view.destroy();
      editor.getState().reset(null);
    };
  }, [handle, documentId, bridge, editor]);

  useEffect(() => {
    if (identity) presenceRef.current?.setUser({ name: identity.displayName, color: identity.color });
  }, [identity]);

  return <div className="editor-host" ref={parentRef} />;
}
