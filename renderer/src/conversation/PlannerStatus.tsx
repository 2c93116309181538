/**
 * The Planner's state in the open plan, under the conversation's heading (issue #25): who runs it here ("Planner runs
 * on alice's app"), why this app could not take it when it tried, the generations and the lease's keeper in the
 * details, and, for any editor, "Reset Planner ownership" behind a confirmation (the prototype never exposed one).
 */
import type { PlannerState } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import type { PlannerView } from "./use-planner-state.js";

/** Said instead of offering the Planner when it is off on this app and no teammate's app runs it here. */
export const PLANNER_OFF_HERE = "The Planner is off on this app: turn it on in Settings to ask it here.";

/** Why the composer does not offer the Planner now, or null when it does. */
export function plannerUnavailable(state: PlannerState | null): string | null {
  return state?.offHere && state.state !== "running-elsewhere" ? PLANNER_OFF_HERE : null;
}

export function plannerSentence(state: PlannerState): string {
  if (plannerUnavailable(state)) return PLANNER_OFF_HERE;
  switch (state.state) {
    case "running-here":
      return "Planner runs on this app";
    case "running-elsewhere":
      return `Planner runs on ${state.owner!.user}'s app`;
    case "unowned":
      return "Nobody runs the Planner here yet: a message to @Planner starts it on the app of the first person who may run it.";
    case "unknown":
      return state.owner
        ? `The relay cannot be reached: the Planner last ran on ${state.owner.user}'s app.`
        : "The relay cannot be reached, so who runs the Planner here is not known right now.";
  }
}

export function PlannerStatus({ view }: { view: PlannerView }) {
  const { ui } = useServices();
  const { state, error, reset } = view;
  if (!state) return error ? <p className="planner-status is-error">{error}</p> : null;
  const askReset = () =>
    ui.getState().askConfirm({
      title: "Reset Planner ownership?",
      message: `${state.ownedHere ? "This app" : `${state.owner!.user}'s app`} stops running the Planner in this plan now. The next message to the Planner lets the first person who may run it take it over. The conversation records that you reset it.`,
      confirmLabel: "Reset",
      onConfirm: reset,
    });
  return (
    <div className={`planner-status is-${state.state}`} role="status" aria-label="Planner">
      <p className="planner-sentence">{plannerSentence(state)}</p>
      {state.refusal && state.state === "unowned" && !state.offHere && <p className="planner-refusal">Not on this app: {state.refusal.message}</p>}
      {error && (
        <p className="planner-refusal" role="alert">
          {error}
        </p>
      )}
      <details className="planner-details">
        <summary>Details</summary>
        <dl>
          <dt>Ownership generation</dt>
          <dd>{state.ownershipGeneration}</dd>
          <dt>Planner session</dt>
          <dd>{state.sessionGeneration}</dd>
          <dt>Kept by</dt>
          <dd>{state.keeper === "relay" ? "the team relay" : "this device (a private plan)"}</dd>
          {state.owner && (
            <>
              <dt>Device</dt>
              <dd>{state.owner.device}</dd>
            </>
          )}
        </dl>
        {state.owner && state.state !== "unknown" && (
          <button type="button" className="button button-small" onClick={askReset}>
            Reset Planner ownership
          </button>
        )}
      </details>
    </div>
  );
}
