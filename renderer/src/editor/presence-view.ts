/**
 * Presence in the editor: other people's carets and selections (remote-carets.ts) and this editor's own selection
 * sent to the replica host, which shares it with the team (replica/document-presence.ts). Positions cross between
 * the two as plain indexes in the session's text at a named version: the editor's own are mapped back over its
 * unconfirmed edits to the version it last synced, the host's are mapped forward over them.
 * What must stay true: nothing here changes the text; a caret report for a version this editor has moved past is
 * clamped, never thrown (a newer report follows the change that moved it).
 */
import { getSyncedVersion } from "@codemirror/collab";
import type { Extension } from "@codemirror/state";
import { unconfirmedChanges as unconfirmed } from "../mirror/editor-mirror.js";
import { EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import type { HostCaret } from "../replica/host-protocol.js";
import { caretLabelFit } from "./caret-label-fit.js";
import { remoteCaretsField, setRemoteCarets } from "./remote-carets.js";

export interface PresenceView {
  extension: Extension;
  /** The host's report: carets as positions in the session's text at `version`. */
  show(version: number, carets: HostCaret[]): void;
}

export function presenceView(select: (version: number, anchor: number, head: number) => void): PresenceView {
  let view: EditorView | null = null;
  let queued = false;

  const sendSelection = () => {
    queued = false;
    if (!view) return;
    const state = view.state;
    const { anchor, head } = state.selection.main;
    const pending = unconfirmed(state);
    const back = pending?.invertedDesc;
    select(getSyncedVersion(state), back ? back.mapPos(anchor, -1) : anchor, back ? back.mapPos(head, -1) : head);
  };
  // After the update that moved it (a dispatch may not happen inside one, and one message per burst is enough).
  const scheduleSelection = () => {
    if (queued) return;
    queued = true;
    queueMicrotask(sendSelection);
  };

  const plugin = ViewPlugin.define((v) => {
    view = v;
    scheduleSelection();
    return {
      update(update: ViewUpdate) {
        // A confirmation moves the synced version without changing the text: the position is resent against it.
        const confirmed = getSyncedVersion(update.startState) !== getSyncedVersion(update.state);
        if (update.selectionSet || update.docChanged || confirmed) scheduleSelection();
      },
      destroy() {
        if (view === v) view = null;
      },
    };
  });

  return {
    extension: [remoteCaretsField, plugin, caretLabelFit],
    show(version, carets) {
      if (!view) return;
      const state = view.state;
      const length = state.doc.length;
      const forward = getSyncedVersion(state) === version ? unconfirmed(state) : null;
      const place = (position: number) => Math.max(0, Math.min(length, forward ? forward.mapPos(Math.min(position, forward.length), -1) : position));
      view.dispatch({ effects: setRemoteCarets.of(carets.map((c) => ({ ...c, anchor: place(c.anchor), head: place(c.head) }))) });
    },
  };
}
