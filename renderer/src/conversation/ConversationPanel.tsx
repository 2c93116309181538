/**
 * The open plan's conversation beside the editor (issue #25): who runs the Planner, the transcript (Transcript.tsx,
 * shared with the chat with an agent) and the composer (Composer.tsx, shared likewise), sending through the plan's
 * own conversation (use-conversation.ts), where a send the link lost waits in the list as "not sent".
 */
import type { SendOutcome } from "./use-conversation.js";
import { useServices } from "../state/app-services.js";
import { Composer } from "./Composer.js";
import { PlannerStatus, plannerUnavailable } from "./PlannerStatus.js";
import { PLANNER_TRANSCRIPT, Transcript } from "./Transcript.js";
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

  return (
    <section className="side-panel conversation" aria-labelledby="conversation-heading">
      <div className="panel-heading-row">
        <h2 id="conversation-heading" className="panel-heading">
          Conversation
        </h2>
      </div>
      <PlannerStatus view={planner} />
      <Transcript documentId={documentId} view={view} planner={planner.state} streaming={streaming} agent={PLANNER_TRANSCRIPT} stop={() => bridge.api.abortPlannerTurn(documentId)} />
      <Composer draftId={documentId} disabled={readOnly ?? (archived ? "This plan is archived: restore it to write here." : null)} onSend={send} plan={{ plannerUnavailable: plannerUnavailable(planner.state), shared }} />
    </section>
  );
}
