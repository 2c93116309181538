/**
 * The documents and versions halves of ChopinApi over DocumentService (issue #24: one factory per domain, beside its
 * service). Sharing asks for a team relay first (share-guard.ts); a share re-announces to the relay; a delete lets
 * each window of this device say its goodbye on the plan first (window-farewell.ts).
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { DocumentsApi, VersionsApi } from "../../shared/api.js";
import { checkedApi } from "../util/checked-api.js";
import type { DocumentService } from "./document-service.js";
import { parseDocumentId } from "./document-id.js";
import { requireRelayToShare } from "./share-guard.js";

export interface DocumentsApiDeps {
  /** The Settings relay address now (null: none): sharing needs one. */
  relayUrl(): string | null;
  /** Says each window's goodbye on a plan about to leave this device. */
  farewell(documentId: string): Promise<void>;
  /** Sharing changed what the relay may see: the Repo re-announces. */
  shareConfigChanged(): void;
  /** A plan left this device by its deletion: what lives beside it (its conversation) goes too. */
  deleted?(documentId: DocumentId): void;
}

type DocumentsService = Pick<DocumentService, keyof DocumentsApi>;

export function createDocumentsApi(docs: DocumentsService, deps: DocumentsApiDeps): DocumentsApi {
  return checkedApi<DocumentsApi>({
    listDocuments: (query) => docs.listDocuments(query),
    getDocument: (id) => docs.getDocument(id),
    createDocument: async (input) => {
      if (input?.shared === true) requireRelayToShare(deps.relayUrl(), "create-shared");
      return docs.createDocument(input);
    },
    renameDocument: (id, title) => docs.renameDocument(id, title),
    archiveDocument: (id) => docs.archiveDocument(id),
    restoreDocument: (id) => docs.restoreDocument(id),
    deleteDocument: async (id) => {
      const deleted = await docs.deleteDocument(id, (documentId) => deps.farewell(documentId));
      deps.deleted?.(parseDocumentId(id));
      return deleted;
    },
    shareDocument: async (id) => {
      requireRelayToShare(deps.relayUrl(), "share");
      const summary = await docs.shareDocument(id);
      deps.shareConfigChanged();
      return summary;
    },
    restoreDamagedFromTeam: async (id) => {
      requireRelayToShare(deps.relayUrl(), "team-copy");
      return docs.restoreDamagedFromTeam(id);
    },
    waitSaved: (id, heads) => docs.waitSaved(id, heads),
    openSnapshot: (id) => docs.openSnapshot(id),
    readSavedDocument: (id) => docs.readSavedDocument(id),
    exportMarkdown: (id) => docs.exportMarkdown(id),
    importMarkdown: (file) => docs.importMarkdown(file),
  });
}

export function createVersionsApi(docs: Pick<DocumentService, "listVersions" | "readVersion" | "restoreVersion">): VersionsApi {
  return checkedApi<VersionsApi>({
    listVersions: (id) => docs.listVersions(id),
    readVersion: (id, versionId) => docs.readVersion(id, versionId),
    restoreVersion: (id, versionId, basis) => docs.restoreVersion(id, versionId, basis),
  });
}
