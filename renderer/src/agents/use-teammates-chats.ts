/**
 * Teammates' chats with agents as the Agents page shows them (issue #27): the current scope's table of chats
 * (listAgentChats) less this person's own, read when the page opens and again when the profiles or the documents
 * change (a teammate's first send lists its plan on the team's list). A refusal (the relay cannot be reached) shows
 * no chats rather than an error: the links are an extra, the page works without them.
 *
 * What must stay true: only the newest read is shown (an older answer arriving late never replaces a newer one).
 */
import { useEffect, useState } from "react";
import type { AgentChatListing } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";

export function useTeammatesChats(): AgentChatListing[] {
  const { bridge } = useServices();
  const [chats, setChats] = useState<AgentChatListing[]>([]);
  useEffect(() => {
    let live = true;
    let asked = 0;
    const read = () => {
      const mine = ++asked;
      bridge.api.listAgentChats().then(
        (listed) => live && mine === asked && setChats(listed.filter((chat) => !chat.mine)),
        () => live && mine === asked && setChats([]),
      );
    };
    read();
    const offAgents = bridge.on("agents-changed", read);
    const offDocuments = bridge.on("documents-changed", read);
    return () => {
      live = false;
      offAgents();
      offDocuments();
    };
  }, [bridge]);
  return chats;
}
