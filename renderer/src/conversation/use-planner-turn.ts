/**
 * The Planner's running turn in the open plan, as this app streams it (issue #26): the latest progress the core sent
 * for the plan, kept until the turn is done (its answer then arrives as an entry). The app that runs the Planner sends
 * it, and passes it to teammates' apps that have the conversation open (main/planner/turn-share.ts), so every window
 * of the plan streams the turn.
 */
import { useEffect, useState } from "react";
import type { PlannerTurnProgress } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";

export function usePlannerTurn(documentId: string): PlannerTurnProgress | null {
  const { bridge } = useServices();
  const [progress, setProgress] = useState<PlannerTurnProgress | null>(null);
  useEffect(() => {
    setProgress(null);
    return bridge.on("planner-turn", (next) => {
      if (next.documentId !== documentId) return;
      setProgress(next.done ? null : next);
    });
  }, [bridge, documentId]);
  return progress;
}
