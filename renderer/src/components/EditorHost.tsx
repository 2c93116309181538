/**
 * Hosts the CodeMirror editor for one document and wires it to the rest of the window: the document's session in the
 * replica host (opened here; the editor mirrors its body, mirror/editor-mirror.ts), presence (who is here, remote
 * carets), the truthful save state (SaveTracker on every heads change the host reports) and the outline. The editor
 * is made, and editable, as soon as its starting text is known: the core's snapshot, in the document's first frame,
 * or else the document's own text once the host has loaded it. Until the host has the document the save indicator
 * says "Opening…" and what is typed waits, kept, in the editor.
 * An edit the editor refused because the body would outgrow its limit is said in words in a live region beside it.
 * What must stay true: one editor per session; it is editable while the plan is not archived (the lock follows
 * `readOnly` live, so an archive by a teammate stops typing at once) and the session has not failed; everything it
 * started is stopped when it goes away.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { useServices } from "../state/app-services.js";
import { SaveTracker } from "../state/save-tracker.js";
import { createPlanEditor } from "../editor/plan-editor.js";
import { presenceView } from "../editor/presence-view.js";
import { extractOutline } from "../editor/outline.js";
import { bodySizeRefused, refusalWords } from "../editor/body-size-limit.js";
import { markOpening } from "../state/opening-marks.js";
import { editLock } from "../editor/edit-lock.js";
import type { DocumentLink } from "../replica-link/replica-client.js";
import { keepTypedWhileOpening } from "../replica-link/typed-while-opening.js";
import { WINDOW_ID, windowOutbox } from "../replica/window-outbox.js";

const OUTLINE_DEBOUNCE_MS = 150;

export function EditorHost({
  documentId,
  url,
  snapshotText,
  snapshotHeads = null,
  saved,
  readOnly = false,
  onFailed,
}: {
  documentId: string;
  url: string;
  /** The core's snapshot of the body, the editor's starting text; null: start from the document's once loaded. */
  snapshotText: string | null;
  /** The heads of that snapshot (UrlHeads), so the window's replica owns the body once it holds them. */
  snapshotHeads?: readonly string[] | null;
  /** The core's stored bytes of the document (base64), which the host loads. */
  saved: Promise<string | null>;
  /** Locks the editor against edits (an archived plan). */
  readOnly?: boolean;
  /** The host could not open the document: a sentence for the person. */
  onFailed: (message: string) => void;
}) {
  const { bridge, documents, editor, replica } = useServices();
  const [session, setSession] = useState<{ link: DocumentLink; baseText: string | null } | null>(null);
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;
  const parentRef = useRef<HTMLDivElement>(null);
  const lock = useRef(editLock()).current;
  const readOnlyRef = useRef(readOnly);
  readOnlyRef.current = readOnly;
  const failedRef = useRef(false);
  const liveViewRef = useRef<EditorView | null>(null);
  /** Why the last edit was refused; cleared by the next edit of this window that goes through. */
  const [refusal, setRefusal] = useState<string | null>(null);

  // The session lives as long as this host. A layout effect, so an editor with a snapshot is made before the first paint.
  useLayoutEffect(() => {
    markOpening("replica-load-start");
    const link = replica.open(url, snapshotText, saved, snapshotHeads);
    const off = link.on((event) => {
      if (event.t === "ready") markOpening("replica-ready");
      else if (event.t === "base") setSession((s) => (s?.link === link && s.baseText === null ? { link, baseText: event.text } : s));
      else if (event.t === "failed") onFailedRef.current(event.message);
    });
    setSession({ link, baseText: snapshotText });
    return () => {
      off();
      link.close();
    };
    // One session per host: the document (its key) does not change under it.
  }, [replica]);

  const link = session?.link;
  const baseText = session?.baseText ?? null;
  // A layout effect: the starting text is in the DOM, editable, in the same frame React commits the document.
  useLayoutEffect(() => {
    const parent = parentRef.current;
    if (!parent || !link || baseText === null) return;
    failedRef.current = false;
    const presence = presenceView((version, anchor, head) => link.select(version, anchor, head));
    const tracker = new SaveTracker({
      documentId,
      waitSaved: (id, heads) => bridge.api.waitSaved(id, heads),
      onState: (save) => {
        editor.setState({ save });
        // The core cannot confirm: the host keeps what is unconfirmed at once (the page may go away meanwhile).
        if (save.kind === "failed") link.unconfirmed();
      },
      onConfirmed: (heads) => link.confirmed(heads),
    });
    let outlineTimer: ReturnType<typeof setTimeout> | null = null;
    const extensions = [
      lock.extension(readOnlyRef.current),
      presence.extension,
      EditorView.updateListener.of((update) => {
        for (const tr of update.transactions) {
          const refused = tr.effects.find((e) => e.is(bodySizeRefused));
          if (refused) setRefusal(refusalWords(refused.value));
          else if (tr.docChanged && !tr.annotation(Transaction.remote)) setRefusal(null);
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
    const view = createPlanEditor({
      parent,
      text: baseText,
      mirror: link.mirror,
      extensions,
      mirrorOptions: {
        onFailed: (failure) => {
          failedRef.current = true;
          lock.set(view, true);
          editor.setState({ save: { kind: "failed", message: failure.message } });
        },
      },
    });
    liveViewRef.current = view;
    if (snapshotText !== null) markOpening("snapshot-shown");
    markOpening("editable");
    editor.setState({ view, documentId, save: { kind: "opening" }, outline: extractOutline(baseText) });
    // Enter in the title, or the palette opening this plan, may have asked for the body before it was editable.
    editor.getState().bodyBecameEditable();
    let loaded = false;
    const stopKeeping = keepTypedWhileOpening({
      store: windowOutbox(),
      windowId: WINDOW_ID,
      documentId,
      title: () => documents.getState().selected?.title ?? "",
      baseText,
      view: () => liveViewRef.current,
      loaded: () => loaded,
    });
    const off = link.on((event) => {
      if (event.t === "ready") loaded = true;
      if (event.t === "ready" || event.t === "heads") tracker.headsChanged(event.heads);
      else if (event.t === "presence") {
        presence.show(event.version, event.carets);
        editor.setState({ peers: event.peers });
      } else if (event.t === "outbox-problem" && event.message) documents.getState().showNotice(event.message, documentId);
    });
    return () => {
      off();
      stopKeeping();
      if (outlineTimer) clearTimeout(outlineTimer);
      tracker.stop();
      liveViewRef.current = null;
      view.destroy();
      editor.getState().reset(null);
    };
    // One editor per session: the base text belongs to the session.
  }, [link, baseText, documentId, bridge, editor, documents]);

  useEffect(() => {
    if (!liveViewRef.current || failedRef.current) return;
    lock.set(liveViewRef.current, readOnly);
    // A restore (the banner's button) may have asked for the body while the plan was still locked.
    if (!readOnly) editor.getState().bodyBecameEditable();
  }, [readOnly, lock, editor]);

  return (
    <>
      {baseText === null && snapshotText === null && <p className="doc-loading">Opening…</p>}
      <div className="editor-host" ref={parentRef} />
      {/* Always in the page (empty when there is nothing to say), so a screen reader announces the sentence when it appears. */}
      <p className="editor-refusal" role="status" aria-live="polite">
        {refusal}
      </p>
    </>
  );
}
