/**
 * The chat view's record of a visit (issue #27): showing a person's chat with an agent records it for the sidebar's
 * recents (`recordAgentChatVisit`), and nothing else does (opening the Agents page, a plan or a setting makes no
 * recent). The chat view calls this hook with the agent it shows.
 *
 * What must stay true: one record each time the view shows an agent's chat (again when it shows another); a refused
 * record (agent chat turned off, the agent removed meanwhile) changes nothing and is not the view's to report: the chat
 * view's own read says why it cannot show the chat.
 */
import { useEffect } from "react";
import { useServices } from "../state/app-services.js";

export function useRecordChatVisit(agentId: string | null): void {
  const { bridge } = useServices();
  useEffect(() => {
    if (agentId === null) return;
    bridge.api.recordAgentChatVisit(agentId).catch(() => undefined);
  }, [bridge, agentId]);
}
