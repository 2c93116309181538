/**
 * A conversation's entries, read and checked once and then kept up to date change by change (issue #26: a turn's
 * context is built on every message to the Planner, and reading and checking every entry of a 10,000-entry
 * conversation each time costs tens of milliseconds). Between two reads only the entries the changes touched are
 * parsed again (Automerge's diff between the heads read last and now names them).
 *
 * What must stay true: the result equals readEntries(doc) for the same document, always: same entries, same order,
 * same count of unreadable ones; anything the diff does not explain entry by entry is read whole again.
 */
import { next as A } from "@automerge/automerge";
import { compareEntries, conversationEntrySchema, readEntries, type ConversationDocument, type ConversationEntry } from "../../shared/schema/conversation.js";

export class ParsedTranscript {
  #heads: A.Heads | null = null;
  readonly #byId = new Map<string, ConversationEntry>();
  readonly #unreadable = new Set<string>();
  #sorted: ConversationEntry[] = [];

  read(doc: A.Doc<ConversationDocument>): { entries: ConversationEntry[]; unreadable: number } {
    const heads = A.getHeads(doc);
    if (this.#heads && A.equals(this.#heads, heads)) return this.#result();
    if (this.#heads === null || !this.#update(doc, this.#heads, heads)) this.#full(doc);
    this.#heads = heads;
    return this.#result();
  }

  #result() {
    return { entries: this.#sorted, unreadable: this.#unreadable.size };
  }

  #full(doc: A.Doc<ConversationDocument>): void {
    const { entries } = readEntries(doc);
    this.#byId.clear();
    this.#unreadable.clear();
    for (const entry of entries) this.#byId.set(entry.id, entry);
    for (const key of Object.keys(doc.entries ?? {})) if (!this.#byId.has(key)) this.#unreadable.add(key);
    this.#sorted = entries;
  }

  /** Applies what changed between `before` and `after`; false when the change is not one entry at a time. */
  #update(doc: A.Doc<ConversationDocument>, before: A.Heads, after: A.Heads): boolean {
    const touched = new Set<string>();
    for (const patch of A.diff(doc, before, after)) {
      if (patch.path[0] !== "entries" || patch.path.length < 2 || typeof patch.path[1] !== "string") return false;
      touched.add(patch.path[1]);
    }
    let appendOnly = true;
    const last = this.#sorted.at(-1);
    const added: ConversationEntry[] = [];
    for (const key of touched) {
      const known = this.#byId.has(key);
      this.#byId.delete(key);
      this.#unreadable.delete(key);
      const raw = doc.entries?.[key];
      if (raw === undefined) {
        if (known) appendOnly = false;
        continue;
      }
      const parsed = conversationEntrySchema.safeParse(raw);
      if (!parsed.success || parsed.data.id !== key) {
        this.#unreadable.add(key);
        if (known) appendOnly = false;
        continue;
      }
      this.#byId.set(key, parsed.data);
      if (known || (last && compareEntries(parsed.data, last) < 0)) appendOnly = false;
      else added.push(parsed.data);
    }
    this.#sorted = appendOnly ? [...this.#sorted, ...added.sort(compareEntries)] : [...this.#byId.values()].sort(compareEntries);
    return true;
  }
}
