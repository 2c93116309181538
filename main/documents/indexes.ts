/**
 * The two workspace indexes a device keeps and the share state derived from them.
 * - Local index: every document this device has; its id lives in settings; it is NEVER shared.
 * - Team index: shared documents of the relay's team; its id comes from the relay (`setTeam`); it IS shared.
 * A share is recorded in SQLite first (document_sharing), then entered into the team index; `setTeam` reconciles
 * every recorded share, so a share made before the first connection reaches the team once the index is known.
 * What must stay true: a share or a removal asked for through the API writes its SQLite records first, whole, and
 * changes an index only once they are written; a database that refuses them (a full disk) gets a 'storage-failure'
 * saying nothing changed, and nothing did. A teammate's removal is never refused (team-removal-records.ts).
 */
import type { DocumentId, Repo } from "@automerge/automerge-repo";
import type { Database } from "better-sqlite3";
import type { ChopinError } from "../../shared/errors.js";
import type { IndexEntry, WorkspaceIndex } from "../../shared/schema/workspace-index.js";
import { writeWhole } from "../core/save-failure.js";
import { isRecordedShared, listShared, recordShared, forgetSharing } from "../store/document-sharing.js";
import { getSetting, setSetting } from "../store/settings.js";
import { LOST_LOCAL_INDEX_SETTING, rebuildLocalIndex, type IndexRecovery } from "./index-recovery.js";
import { forgetTeamRemoval, teamRemovalOf } from "../store/team-removals.js";
import { TeamRemovalRecords } from "./team-removal-records.js";
import {
  ensureIndexShape,
  hasEntry,
  newIndex,
  readEntries,
  removeEntry,
  upsertEntry,
  type IndexHandle,
} from "./workspace-index.js";

export const LOCAL_INDEX_SETTING = "documents.localIndexId";

export interface ListedEntry {
  entry: IndexEntry;
  shared: boolean;
}

/** Where a record the database refused in the background is said, and how soon it is tried again. */
export interface IndexRecordOptions {
  onFault?: (failure: ChopinError) => void;
  retryMs?: number;
}

export class Indexes {
  readonly local: IndexHandle;
  #team: IndexHandle | null = null;
  #expectedTeamId: string | null = null;
  readonly #db: Database;
  /** Deleted on this device this session: their own removal from the team index is not a teammate's. */
  readonly #deletedHere = new Set<string>();
  readonly #removals: TeamRemovalRecords;

  /** Set when the local index named in settings did not load and a rebuilt one replaced it at this start. */
  readonly recovery: IndexRecovery | null;

  private constructor(local: IndexHandle, db: Database, recovery: IndexRecovery | null, records: IndexRecordOptions) {
    this.local = local;
    this.#db = db;
    this.recovery = recovery;
    this.#removals = new TeamRemovalRecords(db, records.onFault, records.retryMs);
  }

  /**
   * Opens the local index named in settings, creating (and recording) it on first run. When the named index does not
   * load, a new one is rebuilt from the plans in storage (`storedIds`: the ids of every stored document) before it is
   * recorded, so no private plan drops out of the list; the unreadable one's id is kept (index-recovery.ts).
   */
  static async open(
    repo: Repo,
    db: Database,
    storedIds: () => readonly string[] = () => [],
    records: IndexRecordOptions = {},
  ): Promise<Indexes> {
    const storedId = getSetting(db, LOCAL_INDEX_SETTING);
    let local: IndexHandle | null = null;
    let recovery: IndexRecovery | null = null;
    if (storedId) {
      try {
        local = await repo.find<WorkspaceIndex>(storedId as DocumentId);
      } catch {
        local = null;
      }
    }
    if (!local) {
      local = repo.create<WorkspaceIndex>(newIndex("local"));
      ensureIndexShape(local);
      if (storedId) {
        const rebuilt = await rebuildLocalIndex(repo, local, storedIds().filter((id) => id !== storedId));
        recovery = { unreadableIndexId: storedId, ...rebuilt };
        setSetting(db, LOST_LOCAL_INDEX_SETTING, storedId);
      }
      setSetting(db, LOCAL_INDEX_SETTING, local.documentId);
    }
    ensureIndexShape(local);
    return new Indexes(local, db, recovery, records);
  }

  /** Stops retrying records the database refused (the database is about to close). */
  close(): void {
    this.#removals.close();
  }

  get team(): IndexHandle | null {
    return this.#team;
  }

  /** Both indexes' document ids (the team index's once it is loaded). */
  documentIds(): DocumentId[] {
    return this.#team ? [this.local.documentId, this.#team.documentId] : [this.local.documentId];
  }

  isIndex(id: string): boolean {
    return id === this.local.documentId || id === this.#team?.documentId;
  }

  /** Whether either index lists the document (cheap: no validation of other entries). */
  knows(id: string): boolean {
    return hasEntry(this.local, id) || (!!this.#team && hasEntry(this.#team, id));
  }

  /** What the core's share policy asks. The team index is shared; the local index never. */
  isShared(id: string): boolean {
    if (id === this.local.documentId) return false;
    // The team index is shared from the moment its id is known, so the relay may deliver it to our find().
    if (id === this.#expectedTeamId) return true;
    if (this.#team && id === this.#team.documentId) return true;
    if (this.#recordedShared(id)) return true;
    return !!this.#team && hasEntry(this.#team, id);
  }

  /** The sharing record, unless a teammate's removal not on disk yet is to remove it (and outweighs it meanwhile). */
  #recordedShared(id: string): boolean {
    return this.#removals.unwritten(id) === undefined && isRecordedShared(this.#db, id);
  }

  /** Names the team index before it is loaded; null forgets it. */
  expectTeam(id: string | null): void {
    this.#expectedTeamId = id;
  }

  setTeamHandle(handle: IndexHandle | null): void {
    if (handle) ensureIndexShape(handle);
    this.#team = handle;
    if (!handle) this.#expectedTeamId = null;
  }

  /** Enters every recorded share missing from the team index; `load` gives the entry, null when the doc is gone. */
  async reconcile(load: (id: DocumentId) => Promise<IndexEntry | null>): Promise<string[]> {
    const team = this.#team;
    if (!team) return [];
    const entered: string[] = [];
    for (const { documentId } of listShared(this.#db)) {
      if (hasEntry(team, documentId) || this.#removals.unwritten(documentId) !== undefined) continue;
      const entry = await load(documentId as DocumentId);
      if (entry && this.#team === team && upsertEntry(team, documentId, entry)) entered.push(documentId);
    }
    return entered;
  }

  /** The ids the team index names (none while it is not loaded); entries are not validated here. */
  teamIds(): string[] {
    const documents = (this.#team?.doc() as Partial<WorkspaceIndex> | undefined)?.documents;
    return documents && typeof documents === "object" ? Object.keys(documents) : [];
  }

  /** Union of both indexes; a document in both reports the fresher entry. */
  list(): Map<string, ListedEntry> {
    const out = new Map<string, ListedEntry>();
    for (const [id, entry] of readEntries(this.local)) out.set(id, { entry, shared: this.isShared(id) });
    if (this.#team) {
      for (const [id, entry] of readEntries(this.#team)) {
        const seen = out.get(id);
        if (!seen || entry.updatedAt > seen.entry.updatedAt) out.set(id, { entry, shared: true });
        else seen.shared = true;
      }
    }
    return out;
  }

  /**
   * Enters a new document: always in the local index, in the team index too when shared. A share whose record is
   * refused ('storage-failure') enters it nowhere.
   */
  add(id: string, entry: IndexEntry, shared: boolean, now: number): void {
    if (shared) this.share(id, entry, now);
    upsertEntry(this.local, id, entry);
  }

  /** Records the share durably, then enters it into the team index when one is known ('storage-failure' if refused). */
  share(id: string, entry: IndexEntry, now: number): void {
    writeWhole(() =>
      this.#db.transaction(() => {
        forgetTeamRemoval(this.#db, id);
        recordShared(this.#db, id, now);
      })(),
    );
    this.#removals.forget(id);
    if (this.#team) upsertEntry(this.#team, id, entry);
  }

  /** Refreshes cached entries wherever the document is listed (and in the team index when shared). */
  refresh(id: string, entry: IndexEntry): void {
    if (hasEntry(this.local, id)) upsertEntry(this.local, id, entry);
    if (this.#team && (hasEntry(this.#team, id) || this.#recordedShared(id))) upsertEntry(this.#team, id, entry);
  }

  /** Forgets the document's records, then takes it out of both indexes ('storage-failure' if refused). */
  remove(id: string): void {
    writeWhole(() =>
      this.#db.transaction(() => {
        forgetSharing(this.#db, id);
        forgetTeamRemoval(this.#db, id);
      })(),
    );
    this.#removals.forget(id);
    this.#deletedHere.add(id);
    removeEntry(this.local, id);
    if (this.#team) removeEntry(this.#team, id);
  }

  /**
   * A teammate removed the document from the team index while this device holds it: it stays listed here, private
   * (it no longer syncs with the team), and the removal is recorded so the document can say so. Not for a document
   * the local index lists already, nor one the team index lists again.
   */
  keepAfterTeamRemoval(id: string, entry: IndexEntry, now: number): boolean {
    if (this.#deletedHere.has(id) || hasEntry(this.local, id) || (this.#team && hasEntry(this.#team, id))) return false;
    // Listed first, whatever the database says: nothing typed here may drop out of every list.
    upsertEntry(this.local, id, entry);
    this.#removals.record(id, now);
    return true;
  }

  /** When a teammate removed the document from the team's list while this device held it, or null. */
  leftTeamAt(id: string): number | null {
    return this.#removals.unwritten(id) ?? teamRemovalOf(this.#db, id);
  }
}
