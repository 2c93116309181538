/**
 * The version-history half of the document API: list a plan's versions, read one, restore one. Versions themselves
 * are derived from the change graph (history.ts). What must stay true: reading never writes; a restore is ONE new
 * change, by the person at this device and marked as a restore, that makes title and text equal the version (a
 * bounded text diff, shared/text-update.ts: an old version can differ from today's text entirely), so history keeps everything in between and concurrent edits still merge; restoring what the
 * document already holds makes no change at all. Given the heads the person last saw (`basis`), the change is made as
 * of them, so what teammates wrote after the person confirmed is merged rather than reverted.
 */
import { next as A } from "@automerge/automerge";
import type { DocumentDetail, VersionContent, VersionEntry } from "../../shared/api.js";
import { ChopinError } from "../../shared/errors.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { toHexHeads } from "./heads.js";
import { sameHeads } from "./snapshot-store.js";
import { normalizeTitle } from "./bounds.js";
import { restoreChangeMessage } from "./change-messages.js";
import { contentAt, findVersion, listVersionEntries } from "./history.js";
import type { PlanAccess } from "./plan-access.js";
import { writeTitle } from "./title-write.js";
import { updateTextBounded } from "../../shared/text-update.js";

export async function listVersions(access: PlanAccess, id: string): Promise<VersionEntry[]> {
  const { handle } = await access.load(id);
  return listVersionEntries(handle.doc());
}

export async function readVersion(access: PlanAccess, id: string, versionId: string): Promise<VersionContent> {
  const { handle } = await access.load(id);
  const span = findVersion(handle.doc(), versionId);
  const { title, markdown } = contentAt(handle.doc(), span);
  return { id: span.id, title, markdown };
}

export async function restoreVersion(access: PlanAccess, id: string, versionId: string, basis?: unknown): Promise<DocumentDetail> {
  const { handle } = await access.loadWritable(id);
  const { title, markdown } = contentAt(handle.doc(), findVersion(handle.doc(), versionId));
  const restoredTitle = normalizeTitle(title, handle.doc().title);
  const basisHeads = basis === undefined || basis === null ? null : toHexHeads(basis);
  if (basisHeads && (basisHeads.length === 0 || !A.hasHeads(handle.doc(), basisHeads))) {
    throw new ChopinError("invalid-input", "This plan's history as you saw it is not on this device; open the history again and restore from there.");
  }
  // Restoring what the document already holds (the latest version, or an identical older one) changes nothing, so
  // it makes no change and no "Restored an earlier version" entry.
  if (handle.doc().text === markdown && handle.doc().title === restoredTitle) return access.detailOf(handle);
  const restore = (doc: PlanDocument) => {
    updateTextBounded(doc, ["text"], markdown);
    if (doc.title !== restoredTitle) writeTitle(doc, restoredTitle);
    doc.updatedAt = access.now();
  };
  // As of the history the person saw: what teammates wrote after it is merged with the restore, not taken out.
  if (basisHeads && !sameHeads(basisHeads, A.getHeads(handle.doc()))) access.changeAt(handle, basisHeads, restore, restoreChangeMessage(versionId));
  else access.change(handle, restore, undefined, restoreChangeMessage(versionId));
  return access.detailOf(handle);
}
