/**
 * One document opened by the page, on the replica host's side: loads it into the window's replica (from the core's
 * stored bytes when the page passed them), then owns its body for the page's editor (a TextAuthority), reports its
 * heads (the save state), runs its presence and keeps its unconfirmed edits in the window outbox.
 * What must stay true: the page's edits are taken from the first message (before the load ends they wait in the
 * authority); nothing is reported after close; a document that cannot be opened is reported once, with a sentence.
 */
import type { DocHandle, Repo } from "@automerge/automerge-repo";
import { ChopinError } from "../../../shared/errors.js";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import type { PresenceUser } from "../editor/presence-types.js";
import { TextAuthority } from "../mirror/text-authority.js";
import { base64ToBytes } from "./base64.js";
import { DocumentPresence } from "./document-presence.js";
import type { HostToPage, PageToHost } from "./host-protocol.js";
import { OutboxKeeper } from "./outbox-keeper.js";
import type { OutboxStore } from "./outbox-store.js";
import type { PageApi } from "./page-api.js";
import { openDocumentFrom } from "./replica.js";
import { whenHoldsHeads } from "./snapshot-catch-up.js";
import { SNAPSHOT_CATCH_UP_MS } from "../limits.js";

export interface DocumentSessionOptions {
  id: number;
  repo: Repo;
  url: string;
  /** The core's stored bytes of the document (base64), or null to sync it from the core. */
  saved: string | null;
  baseText: string | null;
  /** The heads of the snapshot `baseText` came from: the body is owned once the document holds them (bounded). */
  baseHeads: string[] | null;
  user: PresenceUser;
  displayName: string | null;
  teamReachable: boolean;
  post: (message: HostToPage) => void;
  outbox: OutboxStore | null;
  windowId: string;
  api: PageApi;
  openTimeoutMs?: number;
}

export class DocumentSession {
  readonly #o: DocumentSessionOptions;
  readonly authority: TextAuthority;
  #handle: DocHandle<PlanDocument> | null = null;
  #presence: DocumentPresence | null = null;
  #keeper: OutboxKeeper | null = null;
  #selection: { version: number; anchor: number; head: number } | null = null;
  #user: PresenceUser;
  #displayName: string | null;
  #teamReachable: boolean;
  #closed = false;
  readonly #onHeads = () => this.#headsChanged();

  constructor(options: DocumentSessionOptions) {
    this.#o = options;
    this.#user = options.user;
    this.#displayName = options.displayName;
    this.#teamReachable = options.teamReachable;
    this.authority = new TextAuthority({
      baseText: options.baseText,
      send: (m) => this.#post({ t: "mirror", session: options.id, m }),
      displayName: () => this.#displayName,
    });
  }

  async start(): Promise<void> {
    let handle: DocHandle<PlanDocument>;
    try {
      handle = await openDocumentFrom(this.#o.repo, this.#o.url, decode(this.#o.saved), timeout(this.#o.openTimeoutMs));
    } catch (error) {
      const known = error instanceof ChopinError ? error : new ChopinError("internal", "This document could not be opened in this window.");
      return this.#post({ t: "failed", session: this.#o.id, code: known.code, message: known.message });
    }
    if (this.#closed) return;
    if (this.#o.baseText !== null && this.#o.baseHeads) {
      await whenHoldsHeads(handle as DocHandle<unknown>, this.#o.baseHeads, SNAPSHOT_CATCH_UP_MS);
      if (this.#closed) return;
    }
    this.#handle = handle;
    this.authority.attach(handle);
    this.#presence = new DocumentPresence({
      handle: handle as DocHandle<unknown>,
      user: this.#user,
      text: () => ({ length: this.authority.length, version: this.authority.version }),
      report: (version, peers, carets) => this.#post({ t: "presence", session: this.#o.id, version, peers, carets }),
    });
    this.#presence.setTeamReachable(this.#teamReachable);
    if (this.#selection) this.select(this.#selection);
    if (this.#o.outbox) {
      this.#keeper = new OutboxKeeper({
        handle,
        store: this.#o.outbox,
        windowId: this.#o.windowId,
        page: null,
        onProblem: (message) => this.#post({ t: "outbox-problem", session: this.#o.id, message }),
        waitSaved: (heads) => this.#o.api.waitSaved(handle.documentId, heads),
      });
    }
    handle.on("heads-changed", this.#onHeads);
    this.#post({ t: "ready", session: this.#o.id, heads: handle.heads() });
  }

  /** A message from the page for this session. */
  receive(message: PageToHost): void {
    if (this.#closed) return;
    if (message.t === "mirror") this.authority.receive(message.m);
    else if (message.t === "selection") this.select(message);
    else if (message.t === "confirmed") this.#keeper?.confirmed(message.heads);
    else if (message.t === "unconfirmed") this.#keeper?.confirmationFailed();
  }

  select(selection: { version: number; anchor: number; head: number }): void {
    this.#selection = selection;
    if (!this.#presence) return;
    const { version, anchor, head } = selection;
    this.#presence.setSelection(this.authority.positionNow(version, anchor), this.authority.positionNow(version, head));
  }

  setUser(user: PresenceUser, displayName: string | null): void {
    this.#user = user;
    this.#displayName = displayName;
    this.#presence?.setUser(user);
  }

  setTeamReachable(reachable: boolean): void {
    this.#teamReachable = reachable;
    this.#presence?.setTeamReachable(reachable);
  }

  /** The page is going away: keep what the core has not confirmed, and say goodbye (teammates stop showing it). */
  flush(): void {
    this.#keeper?.flush();
    this.#presence?.stop();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#handle?.off("heads-changed", this.#onHeads);
    this.authority.detach();
    this.#presence?.stop();
    this.#keeper?.stop();
  }

  #headsChanged(): void {
    if (this.#closed || !this.#handle) return;
    this.#post({ t: "heads", session: this.#o.id, heads: this.#handle.heads() });
    this.#keeper?.headsChanged();
  }

  #post(message: HostToPage): void {
    if (!this.#closed) this.#o.post(message);
  }
}

function decode(saved: string | null): Uint8Array | null {
  if (!saved) return null;
  try {
    return base64ToBytes(saved);
  } catch {
    return null;
  }
}

function timeout(ms: number | undefined): { timeoutMs: number } | undefined {
  return ms === undefined ? undefined : { timeoutMs: ms };
}
