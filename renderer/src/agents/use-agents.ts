/**
 * The agent profiles as the Agents page shows them (issue #27): read when the page opens, then followed through
 * "agents-changed" (this window's changes, another window's, a teammate's arriving through the relay, the relay
 * changing which profiles apply).
 *
 * What must stay true: an answer to the first read that arrives after an event is not shown over it (the event is newer).
 */
import { useEffect, useState } from "react";
import type { AgentList } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";

export interface AgentsView {
  list: AgentList | null;
  error: string | null;
}

export function useAgents(): AgentsView {
  const { bridge } = useServices();
  const [list, setList] = useState<AgentList | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let heard = false;
    const off = bridge.on("agents-changed", (next) => {
      heard = true;
      if (!live) return;
      setList(next);
      setError(null);
    });
    bridge.api.listAgents().then(
      (loaded) => live && !heard && setList(loaded),
      (failure: unknown) => live && setError(describeError(failure)),
    );
    return () => {
      live = false;
      off();
    };
  }, [bridge]);
  return { list, error };
}
