/**
 * A title is written whole: a rename is one value, so two renames made at once (one offline) end as one of the two
 * titles, the later by Automerge's order, never a character merge of both ("Team plan — bob's name — alice's name",
 * seen in the UX audit, was what neither typed). The title field commits on Enter or blur, never per keystroke, so
 * nothing typed is merged away; the other title stays in the document's history.
 */
import type { PlanDocument } from "../../shared/schema/plan-document.js";

export function writeTitle(doc: PlanDocument, title: string): void {
  doc.title = title;
}
