/**
 * The authority side of an editor mirror: it owns the body of one document in the window's replica (a DocHandle,
 * in the replica's worker) and orders every edit to it, the mirror's and everyone else's, into one list of
 * updates (@codemirror/collab's model, with this as the central authority). The mirror's updates become Automerge
 * changes; merged changes from the core become updates for the mirror.
 * What must stay true:
 * - The authority's text is the document's body after every step; an edit it cannot follow (the body replaced by
 *   something other than text) is caught up by one replacement from the document, never guessed.
 * - Updates pushed before the document is loaded are kept and applied once it is, rebased over whatever the load
 *   brought that the mirror's starting text did not have (a stale snapshot): nothing typed while opening is lost.
 * - A pushed update that does not fit the text it claims to change is refused with a typed "failed" message; the
 *   document is untouched by it.
 * - An update that brought a Planner edit carries that edit's change marks (planner-edit-marks.ts), kept with it in
 *   the log so a resend carries them too; the mirror's own edits never carry any.
 */
import { next as A } from "@automerge/automerge";
import type { DocHandle, DocHandleChangePayload } from "@automerge/automerge-repo";
import { rebaseUpdates } from "@codemirror/collab";
import { Text, type ChangeSet } from "@codemirror/state";
import { MAX_DISPLAY_NAME_CHARS } from "../../../shared/limits.js";
import { UPDATED_AT_GRANULARITY_MS } from "../limits.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { BODY_FIELD, replacementOf, spliceChanges, textChangesOf } from "./automerge-text-changes.js";
import { plannerEditMarks } from "./planner-edit-marks.js";
import { fromWire, toWire, type AuthorityToMirror, type MirrorToAuthority, type Update } from "./protocol.js";

/** The client id of updates that came from the document (other people, the core, an agent), not from the mirror. */
export const DOCUMENT_CLIENT_ID = "document";

export interface TextAuthorityOptions {
  /** The mirror's starting text (a snapshot), or null when the mirror waits for the document's. */
  baseText: string | null;
  send(message: AuthorityToMirror): void;
  /** The name written beside this replica's actor, so version history can say who typed. */
  displayName?: () => string | null;
  now?: () => number;
}

export class TextAuthority {
  #handle: DocHandle<PlanDocument> | null = null;
  #text: Text | null;
  /** Accepted updates from version #base on; the mirror holds everything before #base. */
  #log: Update[] = [];
  #base = 0;
  #waiting: { version: number; updates: Update[] }[] = [];
  #applyingOwn = false;
  #failed = false;
  #stop: (() => void) | null = null;
  readonly #options: TextAuthorityOptions;

  constructor(options: TextAuthorityOptions) {
    this.#options = options;
    this.#text = options.baseText === null ? null : Text.of(options.baseText.split("\n"));
  }

  get version(): number {
    return this.#base + this.#log.length;
  }

  /** The body's length now. */
  get length(): number {
    return this.#text?.length ?? 0;
  }

  /** A position in the text at `version`, moved through every update since (clamped when that is long forgotten). */
  positionNow(version: number, position: number): number {
    const at = Math.max(0, Math.min(Math.trunc(Number(position)) || 0, Number.MAX_SAFE_INTEGER));
    if (!Number.isInteger(version) || version < this.#base || version > this.version) return Math.min(at, this.length);
    let moved = at;
    for (const update of this.#log.slice(version - this.#base)) moved = update.changes.mapPos(Math.min(moved, update.changes.length), -1);
    return Math.min(moved, this.length);
  }

  /** Starts owning the document's body (once the replica has it): catches up the base text, then applies pushes. */
  attach(handle: DocHandle<PlanDocument>): void {
    if (this.#handle) throw new Error("This authority already has its document.");
    this.#handle = handle;
    const body = bodyOf(handle.doc());
    if (this.#text === null) {
      this.#text = Text.of(body.split("\n"));
      this.#options.send({ type: "base", text: body });
    } else {
      const catchUp = replacementOf(this.#text.toString(), body);
      if (catchUp) this.#accept([{ clientID: DOCUMENT_CLIENT_ID, changes: catchUp }]);
    }
    const onChange = (payload: DocHandleChangePayload<PlanDocument>) => this.#documentChanged(payload);
    handle.on("change", onChange);
    this.#stop = () => handle.off("change", onChange);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const push of waiting) {
      this.#push(push.version, push.updates);
      if (this.#failed) return;
      this.#options.send({ type: "pushed" });
    }
  }

  receive(message: MirrorToAuthority): void {
    if (this.#failed) return;
    if (message.type === "synced") return this.#forgetBefore(message.version);
    if (message.type === "pull") return this.#resend(message.version);
    if (message.type !== "push" || !Array.isArray(message.updates)) return;
    const updates = message.updates.map(fromWire);
    if (updates.some((u) => u === null)) return this.#fail("invalid-input", "The editor sent an edit Chopin could not read; reopen the document.");
    // Until the document is loaded a push waits, unanswered: the mirror sends nothing more meanwhile, and its next
    // push after the answer carries everything typed since.
    if (!this.#handle) return void this.#waiting.push({ version: message.version, updates: updates as Update[] });
    this.#push(message.version, updates as Update[]);
    if (!this.#failed) this.#options.send({ type: "pushed" });
  }

  detach(): void {
    this.#stop?.();
    this.#stop = null;
  }

  #push(version: number, updates: Update[]): void {
    if (!Number.isInteger(version) || version < this.#base || version > this.version) {
      return this.#fail("invalid-input", "The editor and the document lost track of each other; reopen the document.");
    }
    const rebased = rebaseUpdates(updates, this.#log.slice(version - this.#base)) as Update[];
    const accepted: Update[] = [];
    for (const update of rebased) {
      if (update.changes.length !== this.#text!.length) {
        this.#fail("invalid-input", "The editor sent an edit that does not fit the document; reopen the document.");
        break;
      }
      this.#writeToDocument(update.changes);
      this.#text = update.changes.apply(this.#text!);
      this.#log.push(update);
      accepted.push(update);
    }
    this.#broadcast(this.version - accepted.length, accepted);
    this.#forgetBefore(version);
  }

  #writeToDocument(changes: ChangeSet): void {
    const handle = this.#handle!;
    const name = this.#options.displayName?.()?.slice(0, MAX_DISPLAY_NAME_CHARS) || null;
    const at = (this.#options.now ?? Date.now)();
    this.#applyingOwn = true;
    try {
      handle.change((d) => {
        spliceChanges(d, changes);
        // Version history names who made a change from authors[actor]; the list sorts by updatedAt, bumped at most
        // once per UPDATED_AT_GRANULARITY_MS so typing does not double the number of changes' fields.
        const actor = A.getActorId(d);
        if (name !== null && d.authors?.[actor] !== name) {
          if (!d.authors) d.authors = {};
          d.authors[actor] = name;
        }
        if (typeof d.updatedAt !== "number" || at - d.updatedAt >= UPDATED_AT_GRANULARITY_MS) d.updatedAt = at;
      });
    } finally {
      this.#applyingOwn = false;
    }
  }

  #documentChanged({ patches, doc, patchInfo }: DocHandleChangePayload<PlanDocument>): void {
    if (this.#applyingOwn || this.#failed) return;
    const changes = textChangesOf(patches, this.#text!.length);
    if (changes === null) return;
    const update = changes === "unknown" ? replacementOf(this.#text!.toString(), bodyOf(doc)) : changes;
    if (!update) return;
    // What the Planner did, if this brought one of its edits: marked in every editor that has the plan open.
    const before = patchInfo?.before;
    const marks = before ? plannerEditMarks(doc, A.getHeads(before), update.newLength) : [];
    this.#accept([marks.length > 0 ? { clientID: DOCUMENT_CLIENT_ID, changes: update, marks } : { clientID: DOCUMENT_CLIENT_ID, changes: update }]);
  }

  #accept(updates: Update[]): void {
    for (const update of updates) {
      this.#text = update.changes.apply(this.#text!);
      this.#log.push(update);
    }
    this.#broadcast(this.version - updates.length, updates);
  }

  #broadcast(from: number, updates: Update[]): void {
    if (updates.length > 0) this.#options.send({ type: "updates", version: from, updates: updates.map(toWire) });
  }

  #resend(version: number): void {
    if (!Number.isInteger(version) || version < this.#base || version > this.version) {
      return this.#fail("invalid-input", "The editor and the document lost track of each other; reopen the document.");
    }
    this.#broadcast(version, this.#log.slice(version - this.#base));
  }

  #forgetBefore(version: number): void {
    if (!Number.isInteger(version) || version <= this.#base || version > this.version) return;
    this.#log = this.#log.slice(version - this.#base);
    this.#base = version;
  }

  #fail(code: string, message: string): void {
    this.#failed = true;
    this.#options.send({ type: "failed", code, message });
  }
}

function bodyOf(doc: PlanDocument | undefined): string {
  const body = (doc as Record<string, unknown> | undefined)?.[BODY_FIELD];
  return typeof body === "string" ? body : "";
}
