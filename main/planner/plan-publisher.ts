/**
 * The channel's plan as the Planner's tools reach it (issue #26): read from this replica, written only as the
 * Planner's fenced write (fenced-writer.ts), its own actor stamped "Planner" in the plan's authors and the change
 * message naming the Planner as agent, so the history and change marks tell its edits from people's
 * (shared/planner-changes.ts reads both; a write here must keep giving both). A write's answer
 * waits (at most PLANNER_WRITE_ARRIVAL_WAIT_MS) for the accepted change to come back to this replica, so the revision
 * the model gets next is one that holds its own edit. An edit made for a turn (`turn`: the session's running turn)
 * names the turn's fence (turn-fence.ts), so it is refused once the turn was stopped or a new session began, and when
 * no turn of the session runs at all.
 */
import type { DocumentId } from "@automerge/automerge-repo";
import type { PlanDocument } from "../../shared/schema/plan-document.js";
import { PLANNER_AUTHOR } from "../../shared/planner-changes.js";
import { updateTextBounded } from "../../shared/text-update.js";
import { stampAuthor } from "../documents/authors.js";
import { agentChangeMessage } from "../documents/change-messages.js";
import type { DocumentContent } from "../documents/plan-reads.js";
import { PLANNER_WRITE_ARRIVAL_WAIT_MS } from "../util/limits.js";
import type { FencedWriter } from "./fenced-writer.js";
import type { TurnFence } from "./turn-fence.js";
import type { PlanContent, PlanToolsDeps } from "./plan-tools.js";

export interface PlanPublisherDeps {
  documents: { getContent(id: string): Promise<DocumentContent> };
  writes: Pick<FencedWriter, "prepare" | "publish" | "arrived">;
  /** The fence of the session's turn running now (null: none runs); absent where writes are not a turn's. */
  turn?: () => TurnFence | null;
  now?: () => number;
}

export function planPublisher(deps: PlanPublisherDeps, channelId: DocumentId): PlanToolsDeps {
  const now = deps.now ?? Date.now;
  const content = async (): Promise<PlanContent> => {
    const { detail, markdown } = await deps.documents.getContent(channelId);
    return { markdown, revision: detail.revision, archived: detail.archivedAt !== null };
  };
  return {
    content,
    async publish(markdown) {
      const at = now();
      const fence = deps.turn ? deps.turn() : undefined;
      if (fence === null) return { ok: false, reason: "No turn of this session is running any more (it ended or was stopped), so the plan was not changed." };
      let write: Awaited<ReturnType<PlanPublisherDeps["writes"]["prepare"]>>;
      try {
        write = await deps.writes.prepare<PlanDocument>(
        channelId,
        channelId,
        (doc) => {
          updateTextBounded(doc, ["text"], markdown);
          doc.updatedAt = at;
          stampAuthor(doc, PLANNER_AUTHOR);
        },
        { message: agentChangeMessage({ agent: PLANNER_AUTHOR }), time: Math.floor(at / 1000), ...(fence ? { fence } : {}) },
        );
      } catch (error) {
        // Not the owner any more (or the plan is gone): nothing was prepared, nothing is written.
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
      const outcome = await deps.writes.publish(write);
      if (!outcome.ok) return { ok: false, reason: outcome.reason };
      if (!(await deps.writes.arrived(write, PLANNER_WRITE_ARRIVAL_WAIT_MS))) {
        return { ok: false, reason: "The relay took the edit, but it has not come back to this app yet; read the plan again before editing." };
      }
      return { ok: true, content: await content() };
    },
  };
}
