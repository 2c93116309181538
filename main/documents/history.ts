/**
 * Version history derived from Automerge's change graph, so nothing extra is stored and every replica derives the
 * same versions. Changes (in causal order) are grouped into a version while the author stays the same and each
 * change follows the previous within VERSION_GROUP_GAP_MS; people editing together (each change within
 * VERSION_TOGETHER_MS of the previous, whoever made it) share one version that names them all. Agents' changes and
 * restores are never grouped with anyone else's. A version ends at the heads of the prefix it closes;
 * that prefix is causally closed, so `A.view(doc, heads)` shows exactly the document after that version.
 * A person's change is named by the name its actor had recorded when it was made (names-as-made.ts), so renaming
 * oneself relabels no earlier version; a change made before its actor recorded any name falls back to the actor's
 * current name, then to UNKNOWN_AUTHOR.
 */
import { next as A } from "@automerge/automerge";
import { changeMetasSince } from "../../shared/node/change-meta.js";
import { deterministicCausalOrder } from "./causal-order.js";
import { ChopinError } from "../../shared/errors.js";
import { MAX_VERSIONS_LISTED, VERSION_GROUP_GAP_MS, VERSION_MAX_SPAN_MS, VERSION_TOGETHER_MS } from "../util/limits.js";
import type { VersionEntry } from "../../shared/api.js";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { UNKNOWN_AUTHOR } from "./authors.js";
import { agentLabel, agentOfMessage, isRestoreMessage } from "./change-messages.js";
import { isVersionId, toUrlHeads, versionIdOf } from "./heads.js";
import { namesAsMade } from "./names-as-made.js";

export interface VersionSpan {
  id: string;
  /** Hex heads at the end of this version. */
  heads: string[];
  /** Hex heads at the end of the previous version ([] for the first). */
  before: string[];
  authors: string[];
  /** Epoch ms of the last change in the version. */
  at: number;
  changeCount: number;
  /** The version is a restore of an earlier one. */
  restored: boolean;
}

/** Groups the document's changes into versions, oldest first. */
export function groupVersions(doc: A.Doc<PlanDocument>): VersionSpan[] {
  const current = (doc.authors ?? {}) as Record<string, string>;
  // The same order on every replica, so teammates see the same versions under the same ids (causal-order.ts).
  const metas = deterministicCausalOrder(changeMetasSince(doc, []));
  const asMade = namesAsMade(doc, metas);
  const spans: VersionSpan[] = [];
  const heads = new Set<string>();
  let open: (VersionSpan & { key: string; person: boolean; lastMs: number; firstMs: number }) | null = null;
  let before: string[] = [];

  const close = () => {
    if (!open) return;
    const { key: _key, person: _person, lastMs: _lastMs, firstMs: _firstMs, ...span } = open;
    spans.push(span);
    before = span.heads;
    open = null;
  };

  for (const meta of metas) {
    for (const dep of meta.deps) heads.delete(dep);
    heads.add(meta.hash);
    // An empty change (a repo's creation marker) carries no edit: it extends the heads but is no one's version.
    const empty = meta.maxOp < meta.startOp;
    // An agent's change names the agent in its message; it shares this device's actor with the person.
    const agent = agentOfMessage(meta.message);
    const name = agent === null ? (asMade.get(meta.hash) ?? current[meta.actor]) : agentLabel(agent);
    const restore = isRestoreMessage(meta.message);
    // A restore is a version of its own (a key no other change has), so restoring the version before it undoes it.
    const key = restore ? `restore:${meta.hash}` : agent === null ? (name ?? `actor:${meta.actor}`) : `agent:${agent}`;
    const ms = meta.time * 1000;
    const person = agent === null && !restore;
    // A version ends at a pause of VERSION_GROUP_GAP_MS, and at the latest once it spans VERSION_MAX_SPAN_MS, so a
    // long session of steady typing still leaves points to go back to. Another person joins it when typing together.
    const together = open !== null && open.person && person && ms - open.lastMs < VERSION_TOGETHER_MS;
    if (!empty && (!open || (open.key !== key && !together) || ms - open.lastMs >= VERSION_GROUP_GAP_MS || ms - open.firstMs >= VERSION_MAX_SPAN_MS)) {
      close();
      open = { id: "", heads: [], before, authors: [], at: ms, changeCount: 0, restored: restore, key, person, lastMs: ms, firstMs: ms };
    }
    if (open && !empty && !open.authors.includes(name ?? UNKNOWN_AUTHOR)) open.authors.push(name ?? UNKNOWN_AUTHOR);
    if (open) {
      open.heads = [...heads].sort();
      open.id = versionIdOf(open.heads);
      if (!empty) {
        open.changeCount += 1;
        open.at = Math.max(open.at, ms);
        open.lastMs = ms;
      }
    }
  }
  close();
  return spans;
}

function charCounts(patches: readonly A.Patch[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const patch of patches) {
    if (patch.path[0] !== "text") continue;
    if (patch.action === "splice") added += [...patch.value].length;
    else if (patch.action === "del") removed += patch.length ?? 1;
    else if (patch.action === "put" && patch.path.length === 1 && typeof patch.value === "string") {
      added += [...patch.value].length;
    }
  }
  return { added, removed };
}

/** "+120 −4 characters", "Renamed to “Launch plan”", "Created", "Archived"... joined with ", ". */
export function summarize(doc: A.Doc<PlanDocument>, span: VersionSpan): string {
  const after = A.view(doc, span.heads);
  const prior = span.before.length > 0 ? A.view(doc, span.before) : null;
  const parts: string[] = [];
  if (span.restored) parts.push("Restored an earlier version");
  if (!prior) parts.push("Created");
  else if (prior.title !== after.title) parts.push(`Renamed to “${after.title}”`);
  if (prior && (prior.archivedAt ?? null) !== (after.archivedAt ?? null)) {
    parts.push(after.archivedAt === null ? "Restored from archive" : "Archived");
  }
  const { added, removed } = charCounts(A.diff(doc, span.before, span.heads));
  if (added > 0 || removed > 0) {
    const counts = [added > 0 ? `+${added}` : "", removed > 0 ? `−${removed}` : ""].filter(Boolean).join(" ");
    // "+1 character", but "+1 −1 characters": the noun agrees with the last count only when there is one count.
    const one = (added > 0) !== (removed > 0) && added + removed === 1;
    parts.push(`${counts} ${one ? "character" : "characters"}`);
  }
  if (parts.length === 0) parts.push("No text changes");
  return parts.join(", ");
}

/**
 * Newest first, at most MAX_VERSIONS_LISTED: the newest ones and always the first ("Created"), so the plan as it was
 * made can still be viewed and restored however long its history grows (two writers taking turns make a version per
 * write).
 */
export function listVersionEntries(doc: A.Doc<PlanDocument>): VersionEntry[] {
  const all = groupVersions(doc);
  const kept = all.length <= MAX_VERSIONS_LISTED ? all : [all[0], ...all.slice(-(MAX_VERSIONS_LISTED - 1))];
  const spans = kept.reverse();
  return spans.map((span) => ({
    id: span.id,
    heads: toUrlHeads(span.heads),
    authors: span.authors,
    at: span.at,
    summary: summarize(doc, span),
    changeCount: span.changeCount,
  }));
}

export function findVersion(doc: A.Doc<PlanDocument>, versionId: unknown): VersionSpan {
  if (typeof versionId !== "string") throw new ChopinError("invalid-input", "A version id must be text.");
  // Checked before anything walks the history (pointNamed hashes every change): junk of any length is refused at once.
  if (!isVersionId(versionId)) throw new ChopinError("invalid-input", "That is not a version id: pass one listVersions returned.");
  const span = groupVersions(doc).find((candidate) => candidate.id === versionId) ?? pointNamed(doc, versionId);
  if (!span) throw new ChopinError("not-found", "That version does not exist in this document's history.");
  return span;
}

/**
 * The point in history a version id names when no version ends there any more: an id names where a version ended
 * when it was listed, and when its author kept writing within the same version, that end moved on. The document as
 * it was at that point is still what the person viewed (and may restore). Walks every change, so only on this path.
 */
function pointNamed(doc: A.Doc<PlanDocument>, versionId: string): VersionSpan | null {
  const heads = new Set<string>();
  for (const meta of deterministicCausalOrder(changeMetasSince(doc, []))) {
    for (const dep of meta.deps) heads.delete(dep);
    heads.add(meta.hash);
    const sorted = [...heads].sort();
    if (versionIdOf(sorted) === versionId) {
      return { id: versionId, heads: sorted, before: [], authors: [], at: meta.time * 1000, changeCount: 0, restored: false };
    }
  }
  return null;
}

/** The title and Markdown the document had at the end of a version. */
export function contentAt(doc: A.Doc<PlanDocument>, span: VersionSpan): { title: string; markdown: string } {
  const view = A.view(doc, span.heads) as Partial<PlanDocument> & { body?: unknown };
  const markdown = typeof view.text === "string" ? view.text : typeof view.body === "string" ? view.body : "";
  return { title: typeof view.title === "string" ? view.title : "", markdown };
}
