/**
 * The open plan's conversation as the panel shows it: the newest page, earlier pages on request, read again whenever
 * the core says the conversation changed (a message arrived, one of ours was delivered), and sends that survive a
 * lost link to the core: a send that did not get through stays in the list as "not sent" with its clientRequestId,
 * and retrying it can never make a second entry (the core keys entries by author and clientRequestId).
 *
 * What must stay true: an answer for another plan, or one arriving after the panel left the plan, is never shown;
 * pages already loaded are kept when the newest page is read again (older entries do not change).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Addressee } from "../../../shared/schema/conversation.js";
import type { ConversationEntryView } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { CONVERSATION_PANEL_PAGE_ENTRIES } from "../limits.js";

/** A send the core has not confirmed: on its way, or refused by a lost link (then it can be retried as it was). */
export interface UnconfirmedSend {
  clientRequestId: string;
  text: string;
  to: Addressee;
  /** Documents the message references (`#`), sent again as they were on a retry. */
  references?: string[];
  state: "sending" | "failed";
  error?: string;
}

export type SendOutcome = "sent" | "unsent" | "refused";

export interface ConversationView {
  entries: ConversationEntryView[];
  unconfirmed: UnconfirmedSend[];
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  /** The first entry that was unread when the panel opened this plan (the "New" line goes before it). */
  firstUnreadId: string | null;
  loadEarlier(): Promise<void>;
  /**
   * Sends: 'sent' once the core holds it; 'unsent' when the link failed (it waits in the list to be retried as it
   * was); 'refused' when the core refused it for what it is (nothing kept; the reason is the panel's error).
   */
  send(text: string, to: Addressee, references?: string[]): Promise<SendOutcome>;
  retry(clientRequestId: string): Promise<SendOutcome>;
  dismiss(clientRequestId: string): void;
}

/** Link failures: the call may not have reached the core, so the same send may be retried as it was. */
const RETRYABLE = new Set(["core-unreachable", "core-unavailable", "timeout", "storage-failure"]);

function newRequestId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === "function") return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The newest page merged after the older entries already loaded. */
function merged(loaded: ConversationEntryView[], newest: ConversationEntryView[]): ConversationEntryView[] {
  if (newest.length === 0) return newest;
  const first = loaded.findIndex((entry) => entry.id === newest[0]!.id);
  return first < 0 ? newest : [...loaded.slice(0, first), ...newest];
}

export function useConversation(documentId: string): ConversationView {
  const { bridge } = useServices();
  const [entries, setEntries] = useState<ConversationEntryView[]>([]);
  const [unconfirmed, setUnconfirmed] = useState<UnconfirmedSend[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [firstUnreadId, setFirstUnreadId] = useState<string | null>(null);
  const current = useRef(documentId);
  current.current = documentId;
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const olderLoaded = useRef(false);
  /** Reads of the newest page asked for, and the latest one shown: an older read answering late is not shown. */
  const reads = useRef({ asked: 0, shown: 0 });

  const readNewest = useCallback(async () => {
    const asked = documentId;
    const read = ++reads.current.asked;
    try {
      const page = await bridge.api.readConversation(asked, { limit: CONVERSATION_PANEL_PAGE_ENTRIES });
      if (current.current !== asked) return;
      if (read < reads.current.shown) return page;
      reads.current.shown = read;
      setEntries((loaded) => merged(loaded, page.entries));
      if (!olderLoaded.current) setHasMore(page.hasMore);
      setError(null);
      return page;
    } catch (e) {
      if (current.current === asked) setError(describeError(e));
      return undefined;
    } finally {
      if (current.current === asked) setLoading(false);
    }
  }, [bridge, documentId]);

  useEffect(() => {
    setEntries([]);
    setUnconfirmed([]);
    setHasMore(false);
    setLoading(true);
    setError(null);
    setFirstUnreadId(null);
    olderLoaded.current = false;
    let live = true;
    void readNewest().then((page) => {
      if (!live || !page) return;
      setFirstUnreadId(page.entries.find((entry) => entry.unread)?.id ?? null);
    });
    const off = bridge.on("conversation-changed", (change) => {
      if (change.documentId === documentId) void readNewest();
    });
    // A document a shown message references changed: read again, so the message can say it changed since.
    const offDocuments = bridge.on("documents-changed", ({ ids }) => {
      const referenced = new Set(entriesRef.current.flatMap((entry) => (entry.references ?? []).map((reference) => reference.documentId)));
      if (ids.some((id) => referenced.has(id))) void readNewest();
    });
    return () => {
      live = false;
      off();
      offDocuments();
    };
  }, [bridge, documentId, readNewest]);

  const loadEarlier = useCallback(async () => {
    const asked = documentId;
    const oldest = entriesRef.current[0];
    if (!oldest) return;
    try {
      const page = await bridge.api.readConversation(asked, { limit: CONVERSATION_PANEL_PAGE_ENTRIES, before: oldest.id });
      if (current.current !== asked) return;
      olderLoaded.current = true;
      setEntries((loaded) => [...page.entries.filter((entry) => !loaded.some((l) => l.id === entry.id)), ...loaded]);
      setHasMore(page.hasMore);
    } catch (e) {
      if (current.current === asked) setError(describeError(e));
    }
  }, [bridge, documentId]);

  const deliver = useCallback(
    async (send: UnconfirmedSend): Promise<SendOutcome> => {
      const asked = documentId;
      setUnconfirmed((list) => [...list.filter((s) => s.clientRequestId !== send.clientRequestId), { ...send, state: "sending", error: undefined }]);
      try {
        await bridge.api.postMessage(asked, { text: send.text, to: send.to, clientRequestId: send.clientRequestId, ...(send.references?.length ? { references: send.references } : {}) });
        if (current.current !== asked) return "sent";
        setUnconfirmed((list) => list.filter((s) => s.clientRequestId !== send.clientRequestId));
        await readNewest();
        return "sent";
      } catch (e) {
        if (current.current !== asked) return "unsent";
        const code = e instanceof ChopinError ? e.code : (e as { code?: string } | null)?.code;
        if (code !== undefined && RETRYABLE.has(code)) {
          setUnconfirmed((list) => list.map((s) => (s.clientRequestId === send.clientRequestId ? { ...s, state: "failed", error: describeError(e) } : s)));
          return "unsent";
        }
          // Refused for what it is (too long, an archived plan): nothing was kept, and retrying would not help.
        setUnconfirmed((list) => list.filter((s) => s.clientRequestId !== send.clientRequestId));
        setError(describeError(e));
        return "refused";
      }
    },
    [bridge, documentId, readNewest],
  );

  const send = useCallback(
    (text: string, to: Addressee, references?: string[]) => deliver({ clientRequestId: newRequestId(), text, to, ...(references?.length ? { references } : {}), state: "sending" }),
    [deliver],
  );
  const unconfirmedRef = useRef(unconfirmed);
  unconfirmedRef.current = unconfirmed;
  const retry = useCallback(
    async (clientRequestId: string) => {
      const failed = unconfirmedRef.current.find((s) => s.clientRequestId === clientRequestId);
      return failed ? deliver(failed) : "refused";
    },
    [deliver],
  );
  const dismiss = useCallback((clientRequestId: string) => setUnconfirmed((list) => list.filter((s) => s.clientRequestId !== clientRequestId)), []);

  return { entries, unconfirmed, hasMore, loading, error, firstUnreadId, loadEarlier, send, retry, dismiss };
}
