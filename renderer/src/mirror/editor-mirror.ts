/**
 * The page side of an editor mirror: CodeMirror holds the body as plain text and exchanges edits with the text
 * authority (text-authority.ts) that owns the document, instead of holding the Automerge document itself. So the
 * page's main thread never loads the document (a long history takes seconds, all of them blocking), and the editor
 * is editable from its first frame: what is typed meanwhile waits, unconfirmed, and is rebased over whatever the
 * document brings (@codemirror/collab does the rebasing and keeps others' edits out of this editor's undo history).
 * What must stay true: at most one push is in flight; every local edit is pushed until the authority confirms it;
 * updates are applied in version order, a gap is asked for again, a repeat is ignored.
 */
import { collab, getSyncedVersion, receiveUpdates, sendableUpdates } from "@codemirror/collab";
import { ChangeSet, type EditorState, type Extension } from "@codemirror/state";
import { EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import { plannerMarksArrived } from "./change-marks.js";
import { fromWire, toWire, type AuthorityToMirror, type MirrorChannel, type MirrorToAuthority, type Update } from "./protocol.js";

export type MirrorEnd = MirrorChannel<MirrorToAuthority, AuthorityToMirror>;

export interface EditorMirrorOptions {
  /** The authority's version of the text the editor starts with (0 for a session's base text). */
  startVersion?: number;
  /** This editor's id in the authority's list of updates; unique per editor. */
  clientID?: string;
  /** The authority gave up on the session (a typed code and a sentence): the editor should become read-only. */
  onFailed?: (failure: { code: string; message: string }) => void;
}

/** How many of this editor's edits the authority has not confirmed yet (none: everything typed is in the document). */
export function unconfirmedEdits(state: EditorState): number {
  return sendableUpdates(state).length;
}

/** This editor's unconfirmed edits as one change from the synced text to what it shows; null when there are none. */
export function unconfirmedChanges(state: EditorState): ChangeSet | null {
  const updates = sendableUpdates(state);
  if (updates.length === 0) return null;
  return updates.reduce((all, update) => all.compose(update.changes), ChangeSet.empty(updates[0].changes.length));
}

export function editorMirror(channel: MirrorEnd, options: EditorMirrorOptions = {}): Extension {
  const plugin = ViewPlugin.define((view) => new MirrorPlugin(view, channel, options));
  return [collab({ startVersion: options.startVersion ?? 0, ...(options.clientID ? { clientID: options.clientID } : {}) }), plugin];
}

class MirrorPlugin {
  #inFlight = false;
  #stopped = false;
  readonly #unlisten: () => void;

  constructor(
    private readonly view: EditorView,
    private readonly channel: MirrorEnd,
    private readonly options: EditorMirrorOptions,
  ) {
    this.#unlisten = channel.listen((message) => this.#receive(message));
    this.#push();
  }

  update(update: ViewUpdate): void {
    if (update.docChanged) this.#push();
  }

  destroy(): void {
    this.#stopped = true;
    this.#unlisten();
  }

  #push(): void {
    if (this.#inFlight || this.#stopped) return;
    const updates = sendableUpdates(this.view.state);
    if (updates.length === 0) return;
    this.#inFlight = true;
    this.channel.post({ type: "push", version: getSyncedVersion(this.view.state), updates: updates.map(toWire) });
  }

  #receive(message: AuthorityToMirror): void {
    if (this.#stopped) return;
    if (message.type === "pushed") {
      this.#inFlight = false;
      this.#push();
    } else if (message.type === "updates") {
      this.#apply(message.version, message.updates.map(fromWire));
    } else if (message.type === "failed") {
      this.#stopped = true;
      this.options.onFailed?.({ code: message.code, message: message.message });
    }
  }

  #apply(from: number, updates: (Update | null)[]): void {
    const synced = getSyncedVersion(this.view.state);
    // A gap means updates went missing on the way: ask for everything from what this editor has.
    if (from > synced) return this.channel.post({ type: "pull", version: synced });
    const fresh = updates.slice(synced - from);
    if (fresh.length === 0) return;
    if (fresh.some((u) => u === null)) {
      this.#stopped = true;
      this.options.onFailed?.({ code: "invalid-input", message: "The document sent an edit this editor could not read; reopen the document." });
      return;
    }
    // The Planner's marks ride as the update's effect: collab maps them over the updates after it and this editor's
    // unconfirmed edits, so they land where that text is in this editor (change-marks.ts).
    const received = (fresh as Update[]).map(({ clientID, changes, marks }) => (marks ? { clientID, changes, effects: [plannerMarksArrived.of(marks)] } : { clientID, changes }));
    this.view.dispatch(receiveUpdates(this.view.state, received));
    // With nothing of its own outstanding, say how far this editor is (the authority may forget older updates).
    if (sendableUpdates(this.view.state).length === 0) this.channel.post({ type: "synced", version: getSyncedVersion(this.view.state) });
  }
}
