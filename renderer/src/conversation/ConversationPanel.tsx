/**
 * The open plan's conversation beside the editor (issue #25): who runs the Planner, the transcript (Transcript.tsx,
 * shared with the chat with an agent) and the composer (Composer.tsx, shared likewise), sending through the plan's
 * own conversation (use-conversation.ts), where a send the link lost waits in the list as "not sent"; a failed or
 * interrupted turn's Retry posts the asked message to the Planner again (TurnRetry.tsx).
 */
import type { SendOutcome } from "./use-conversation.js";
import { useServices } from "../state/app-services.js";
import { Composer } from "./Composer.js";
import { PlannerStatus, plannerUnavailable } from "./PlannerStatus.js";
import { PLANNER_TRANSCRIPT, Transcript } from "./Transcript.js";
import type { RetryTurn } from "./TurnRetry.js";
import { usePlannerState } from "./use-planner-state.js";
import { usePlannerTurn } from "./use-planner-turn.js";
import { useConversation } from "./use-conversation.js";

/** `readOnly`: why nothing can be written here (a teammate's chat with an agent), said where the composer would be. */
export function ConversationPanel({ documentId, archived, shared = false, readOnly }: { documentId: string; archived: boolean; shared?: boolean; readOnly?: string }) {
  const { bridge } = useServices();
  const view = useConversation(documentId);
  const planner = usePlannerState(documentId);
  const streaming = usePlannerTurn(documentId);
  const send = (text: string, to: "room" | "planner", references: string[]): Promise<SendOutcome> => view.send(text, to, references);
  // A failed or interrupted turn's Retry posts the asked words (and references) to the Planner again, under its key.
  const retry: RetryTurn = (request) =>
    bridge.api.postMessage(documentId, { text: request.text, to: "planner", clientRequestId: request.clientRequestId, ...(request.references.length > 0 ? { references: request.references } : {}) });
  const writable = readOnly === undefined && !archived;

  return (
    <section className="side-panel conversation" aria-labelledby="conversation-heading">
      <div className="panel-heading-row">
        <h2 id="conversation-heading" className="panel-heading">
          Conversation
        </h2>
      </div>
      <PlannerStatus view={planner} />
      <Transcript documentId={documentId} view={view} planner={planner.state} streaming={streaming} agent={PLANNER_TRANSCRIPT} stop={() => bridge.api.abortPlannerTurn(documentId)} retry={writable ? retry : undefined} />
      <Composer draftId={documentId} disabled={readOnly ?? (archived ? "This plan is archived: restore it to write here." : null)} onSend={send} plan={{ plannerUnavailable: plannerUnavailable(planner.state), shared }} />
    </section>
  );
}
