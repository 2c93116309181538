/**
 * Who runs the Planner in the open plan (issue #25), as the conversation panel shows it: read when the plan opens and
 * again whenever the core announces a change for it (a claim, a release, an expiry, a reset, the relay coming back).
 *
 * What must stay true: a state for another plan, or one arriving after the panel left the plan, is never shown.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { PlannerState } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";

export interface PlannerView {
  state: PlannerState | null;
  error: string | null;
  reset(): Promise<void>;
}

export function usePlannerState(documentId: string): PlannerView {
  const { bridge } = useServices();
  const [state, setState] = useState<PlannerState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useRef(documentId);
  current.current = documentId;

  useEffect(() => {
    setState(null);
    setError(null);
    let live = true;
    const show = (next: PlannerState) => {
      if (live && next.documentId === documentId) setState(next);
    };
    bridge.api.getPlannerState(documentId).then(show, (failure: unknown) => {
      if (live) setError(describeError(failure));
    });
    const off = bridge.on("planner-changed", show);
    return () => {
      live = false;
      off();
    };
  }, [bridge, documentId]);

  const reset = useCallback(async () => {
    const asked = documentId;
    try {
      const next = await bridge.api.resetPlannerOwnership(asked);
      if (current.current === asked) {
        setState(next);
        setError(null);
      }
    } catch (failure) {
      if (current.current === asked) setError(describeError(failure));
    }
  }, [bridge, documentId]);

  return { state, error, reset };
}
