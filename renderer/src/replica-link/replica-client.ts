/**
 * The page's side of the replica host (replica/replica-host.ts): opens document sessions there, carries each
 * session's editor mirror and events, and serves what only the page has: the core's API (calls from the host are
 * answered here) and the origin's localStorage (the host's outbox writes are made here; other windows' changes to
 * it are passed on).
 * What must stay true: a session's messages are sent only after its "open" (they wait until the stored bytes the
 * open carries have arrived); events of a closed session are dropped; a storage write the browser refuses is said
 * in words, never dropped silently.
 */
import type { ChopinApi } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import type { PresenceUser } from "../editor/presence-types.js";
import type { AuthorityToMirror, MirrorToAuthority } from "../mirror/protocol.js";
import type { MirrorEnd } from "../mirror/editor-mirror.js";
import type { HostApiMethod, HostLink, HostToPage, PageToHost } from "../replica/host-protocol.js";
import { OUTBOX_KEY_PREFIX } from "../replica/outbox-store.js";

/**
 * What a session reports to the page, besides its mirror's messages ("base", the text an editor without a snapshot
 * starts from, comes here too: it is needed before there is an editor).
 */
export type SessionEvent = Exclude<Extract<HostToPage, { session: number }>, { t: "mirror" }> | { t: "base"; session: number; text: string };

export interface DocumentLink {
  /** Unique in this window: a new session is a new editor. */
  readonly session: number;
  readonly mirror: MirrorEnd;
  on(listener: (event: SessionEvent) => void): () => void;
  /** This editor's selection, as positions in the session's text at `version`. */
  select(version: number, anchor: number, head: number): void;
  confirmed(heads: string[]): void;
  unconfirmed(): void;
  close(): void;
}

/** The core API calls the host makes through the page. */
export type ReplicaApi = Pick<ChopinApi, HostApiMethod>;

export interface ReplicaClientOptions {
  link: HostLink<PageToHost, HostToPage>;
  api: ReplicaApi;
  /** The origin's storage the outbox lives in (null: none usable). */
  storage: Pick<Storage, "setItem" | "removeItem"> | null;
  notify: (message: string) => void;
}

interface SessionSlot {
  opened: boolean;
  queue: PageToHost[];
  mirrorListeners: Set<(message: AuthorityToMirror) => void>;
  /** Mirror messages that came before an editor listened (or while earlier ones are still being handed over). */
  backlog: AuthorityToMirror[];
  listeners: Set<(event: SessionEvent) => void>;
  /** The latest event of each kind, handed to a listener that comes later (the editor is made after the open). */
  sticky: Map<SessionEvent["t"], SessionEvent>;
}

export class ReplicaClient {
  readonly #o: ReplicaClientOptions;
  readonly #sessions = new Map<number, SessionSlot>();
  #next = 1;
  #user: PresenceUser = { name: "Someone", color: "#5b6b7f" };
  #displayName: string | null = null;
  readonly #stop: () => void;

  constructor(options: ReplicaClientOptions) {
    this.#o = options;
    this.#stop = options.link.listen((message) => this.#receive(message));
  }

  /**
   * Opens a document in the replica. `baseText`: the text the editor starts with (the core's snapshot), or null to
   * wait for the document's ("base" on the mirror). `saved`: the core's stored bytes, base64, when asked for.
   * `baseHeads`: the snapshot's heads, so the replica owns the body only once it holds what the editor shows.
   */
  open(url: string, baseText: string | null, saved: Promise<string | null> | string | null, baseHeads: readonly string[] | null = null): DocumentLink {
    const session = this.#next++;
    const slot: SessionSlot = { opened: false, queue: [], mirrorListeners: new Set(), backlog: [], listeners: new Set(), sticky: new Map() };
    this.#sessions.set(session, slot);
    const send = (message: PageToHost) => {
      if (!this.#sessions.has(session)) return;
      if (slot.opened) this.#o.link.post(message);
      else slot.queue.push(message);
    };
    void Promise.resolve(saved)
      .catch(() => null)
      .then((bytes) => {
        if (!this.#sessions.has(session)) return;
        this.#o.link.post({ t: "open", session, url, saved: bytes ?? null, baseText, baseHeads: baseHeads ? [...baseHeads] : null, user: this.#user, displayName: this.#displayName });
        slot.opened = true;
        for (const message of slot.queue.splice(0)) this.#o.link.post(message);
      });
    return {
      session,
      mirror: {
        post: (m: MirrorToAuthority) => send({ t: "mirror", session, m }),
        listen: (listener) => {
          slot.mirrorListeners.add(listener);
          // Handed over a microtask later: the listener's editor may still be in the making.
          if (slot.backlog.length > 0) queueMicrotask(() => this.#drain(slot));
          return () => void slot.mirrorListeners.delete(listener);
        },
      },
      on: (listener) => {
        slot.listeners.add(listener);
        const missed = [...slot.sticky.values()];
        if (missed.length > 0) queueMicrotask(() => missed.forEach((event) => slot.listeners.has(listener) && listener(event)));
        return () => void slot.listeners.delete(listener);
      },
      select: (version, anchor, head) => send({ t: "selection", session, version, anchor, head }),
      confirmed: (heads) => send({ t: "confirmed", session, heads }),
      unconfirmed: () => send({ t: "unconfirmed", session }),
      close: () => {
        if (!this.#sessions.has(session)) return;
        // Before its open went out, the open is simply never made.
        if (slot.opened) this.#o.link.post({ t: "close", session });
        this.#sessions.delete(session);
      },
    };
  }

  setUser(user: PresenceUser, displayName: string | null): void {
    this.#user = user;
    this.#displayName = displayName;
    this.#o.link.post({ t: "user", user, displayName });
  }

  setTeamReachable(reachable: boolean): void {
    this.#o.link.post({ t: "team-reachable", reachable });
  }

  coreLinkChanged(state: BridgeConnectionState): void {
    this.#o.link.post({ t: "core-link", state });
  }

  /** Another window changed the origin's storage (the page's "storage" event). */
  storageChanged(key: string | null, value: string | null): void {
    if (key !== null && key.startsWith(OUTBOX_KEY_PREFIX)) this.#o.link.post({ t: "storage", entries: [[key, value]] });
  }

  /** The page is going away. */
  flush(): void {
    this.#o.link.post({ t: "flush" });
  }

  stop(): void {
    this.#stop();
    this.#sessions.clear();
  }

  #receive(message: HostToPage): void {
    switch (message.t) {
      case "mirror": {
        const slot = this.#sessions.get(message.session);
        if (!slot) return;
        if (message.m.type === "base") return this.#event(slot, { t: "base", session: message.session, text: message.m.text });
        slot.backlog.push(message.m);
        if (slot.backlog.length === 1 && slot.mirrorListeners.size > 0) this.#drain(slot);
        return;
      }
      case "ready":
      case "heads":
      case "failed":
      case "presence":
      case "outbox-problem": {
        const slot = this.#sessions.get(message.session);
        return slot && this.#event(slot, message);
      }
      case "notice":
        return this.#o.notify(message.message);
      case "api":
        return void this.#call(message.id, message.method, message.args);
      case "storage-set":
      case "storage-remove":
        return this.#write(message);
    }
  }

  #event(slot: SessionSlot, event: SessionEvent): void {
    slot.sticky.set(event.t, event);
    slot.listeners.forEach((listener) => listener(event));
  }

  /** Hands the backlog to the mirror's listeners, in order, including what arrives while it does. */
  #drain(slot: SessionSlot): void {
    while (slot.backlog.length > 0 && slot.mirrorListeners.size > 0) {
      const next = slot.backlog[0];
      slot.mirrorListeners.forEach((listener) => listener(next));
      slot.backlog.shift();
    }
  }

  async #call(id: number, method: keyof ReplicaApi, args: unknown[]): Promise<void> {
    try {
      const fn = this.#o.api[method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn.apply(this.#o.api, args);
      this.#o.link.post({ t: "api-result", id, ok: true, value });
    } catch (error) {
      const known = error instanceof ChopinError ? error : null;
      const raw = (error as { code?: unknown } | null)?.code;
      const code = known?.code ?? (typeof raw === "string" ? raw : "internal");
      const text = known?.message ?? (error instanceof Error ? error.message : "The core could not answer.");
      this.#o.link.post({ t: "api-result", id, ok: false, code, message: text });
    }
  }

  #write(message: Extract<HostToPage, { t: "storage-set" | "storage-remove" }>): void {
    const storage = this.#o.storage;
    if (!storage) return;
    try {
      if (message.t === "storage-set") storage.setItem(message.key, message.value);
      else storage.removeItem(message.key);
    } catch {
      this.#o.notify(
        "This browser refused to keep your unsaved edits (its storage is full or switched off). Keep this window open until Chopin is back — it still holds them.",
      );
    }
  }
}
