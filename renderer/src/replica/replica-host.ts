/**
 * The window's replica host: the automerge-repo Repo the window syncs with its core, and every document the page has
 * open in it (document-session.ts). It runs in a Web Worker (replica.worker.ts), so Automerge's work, a long
 * document's load above all, never holds the page's main thread; tests run it in-process over a MessageChannel.
 * It also replays the window outbox (edits kept while the core was unreachable) into the replica.
 * What must stay true: messages for a session the page closed, or never opened, are dropped; one bad message never
 * stops the host.
 */
import type { Repo } from "@automerge/automerge-repo";
import type { BridgeConnectionState } from "../bridge/socket-bridge.js";
import type { CoreLink } from "../bridge/connect.js";
import { DocumentSession } from "./document-session.js";
import type { HostLink, HostToPage, PageToHost } from "./host-protocol.js";
import { MirroredStorage } from "./mirrored-storage.js";
import { startOutboxReplay } from "./outbox-replay.js";
import { OutboxStore } from "./outbox-store.js";
import { PageApiClient } from "./page-api.js";

export interface ReplicaHostOptions {
  repo: Repo;
  link: HostLink<HostToPage, PageToHost>;
  /** Random per page load (the outbox's entries are per window). */
  windowId: string;
  /** The origin's outbox entries now; null when the page has no usable storage (nothing is kept then). */
  storage: [string, string | null][] | null;
  /** The page's link to the core, when it has one to watch (host mode): the outbox is replayed whenever it opens. */
  coreLink: BridgeConnectionState | null;
  openTimeoutMs?: number;
}

export class ReplicaHost {
  readonly #o: ReplicaHostOptions;
  readonly #sessions = new Map<number, DocumentSession>();
  readonly #api: PageApiClient;
  readonly #storage: MirroredStorage | null;
  readonly #outbox: OutboxStore | null;
  readonly #linkListeners = new Set<(state: BridgeConnectionState) => void>();
  #linkState: BridgeConnectionState | null;
  #teamReachable = true;
  readonly #stops: (() => void)[] = [];

  constructor(options: ReplicaHostOptions) {
    this.#o = options;
    const post = (message: HostToPage) => options.link.post(message);
    this.#api = new PageApiClient(post);
    this.#storage = options.storage
      ? new MirroredStorage((key, value) => post(value === null ? { t: "storage-remove", key } : { t: "storage-set", key, value }), options.storage)
      : null;
    this.#outbox = this.#storage ? new OutboxStore(this.#storage) : null;
    this.#linkState = options.coreLink;
    this.#stops.push(options.link.listen((message) => this.#receive(message)));
    if (this.#outbox) {
      const coreLink: CoreLink | undefined =
        this.#linkState === null
          ? undefined
          : {
              state: () => this.#linkState ?? "open",
              on: (listener) => {
                this.#linkListeners.add(listener);
                return () => this.#linkListeners.delete(listener);
              },
            };
      this.#stops.push(
        startOutboxReplay({ repo: options.repo, api: this.#api.api, store: this.#outbox, coreLink, notify: (message) => post({ t: "notice", message }) }),
      );
    }
  }

  stop(): void {
    for (const session of this.#sessions.values()) session.close();
    this.#sessions.clear();
    this.#api.close();
    this.#stops.forEach((stop) => stop());
  }

  #receive(message: PageToHost): void {
    try {
      this.#handle(message);
    } catch (error) {
      console.error("replica host: a message could not be handled", error);
    }
  }

  #handle(message: PageToHost): void {
    switch (message.t) {
      case "open":
        return this.#open(message);
      case "close": {
        const session = this.#sessions.get(message.session);
        this.#sessions.delete(message.session);
        return session?.close();
      }
      case "mirror":
      case "selection":
      case "confirmed":
      case "unconfirmed":
        return this.#sessions.get(message.session)?.receive(message);
      case "user":
        for (const session of this.#sessions.values()) session.setUser(message.user, message.displayName);
        return;
      case "team-reachable":
        this.#teamReachable = message.reachable;
        for (const session of this.#sessions.values()) session.setTeamReachable(message.reachable);
        return;
      case "api-result":
        return this.#api.settle(message);
      case "storage":
        return this.#storage?.apply(message.entries);
      case "core-link":
        this.#linkState = message.state;
        for (const listener of this.#linkListeners) listener(message.state);
        return;
      case "flush":
        for (const session of this.#sessions.values()) session.flush();
        return;
      case "disconnect":
        return;
    }
  }

  #open(message: Extract<PageToHost, { t: "open" }>): void {
    if (this.#sessions.has(message.session)) return;
    const session = new DocumentSession({
      id: message.session,
      repo: this.#o.repo,
      url: message.url,
      saved: message.saved,
      baseText: message.baseText,
      baseHeads: Array.isArray(message.baseHeads) ? message.baseHeads : null,
      user: message.user,
      displayName: message.displayName,
      teamReachable: this.#teamReachable,
      post: (m) => this.#o.link.post(m),
      outbox: this.#outbox,
      windowId: this.#o.windowId,
      api: this.#api.api,
      openTimeoutMs: this.#o.openTimeoutMs,
    });
    this.#sessions.set(message.session, session);
    void session.start();
  }
}
