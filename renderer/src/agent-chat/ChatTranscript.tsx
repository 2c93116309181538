/**
 * A begun chat's transcript (issue #27): the chat's plan's conversation read a page at a time (use-conversation.ts),
 * the agent's state in that plan (use-planner-state.ts) and its streamed turn (use-planner-turn.ts), shown by the
 * transcript a plan's conversation uses, under the agent's name; Stop ends the running turn through stopAgentChat, and
 * a failed or interrupted turn's Retry sends the asked words again through sendAgentChat.
 */
import { Transcript, type TranscriptAgent } from "../conversation/Transcript.js";
import type { RetryTurn } from "../conversation/TurnRetry.js";
import { useConversation } from "../conversation/use-conversation.js";
import { usePlannerState } from "../conversation/use-planner-state.js";
import { usePlannerTurn } from "../conversation/use-planner-turn.js";

export function chatTranscriptAgent(name: string): TranscriptAgent {
  return {
    name,
    called: name,
    showAddressee: false,
    emptyText: `No messages yet. Write to ${name} below.`,
    divider: `New session: ${name} starts afresh from here`,
    onlyThisPerson: true,
  };
}

/** `retry`: a failed or interrupted turn's Retry, sent through sendAgentChat; absent while the chat takes no messages. */
export function ChatTranscript({ planId, name, stop, retry }: { planId: string; name: string; stop(): Promise<unknown>; retry?: RetryTurn }) {
  const view = useConversation(planId);
  const planner = usePlannerState(planId);
  const streaming = usePlannerTurn(planId);
  return <Transcript documentId={planId} view={view} planner={planner.state} streaming={streaming} agent={chatTranscriptAgent(name || "The agent")} stop={stop} retry={retry} />;
}
