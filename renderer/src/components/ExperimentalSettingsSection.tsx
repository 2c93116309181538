/**
 * The "Experimental" part of Settings (issue #27): features still being built, each off unless turned on here. For
 * now, agent chat: its switch shows the Agents page in the sidebar, where the team's agent profiles are kept. The switch
 * saves at once. A run started with --enable-agent-chat (or CHOPIN_ENABLE_AGENT_CHAT=1) has it on whatever the switch
 * says, and this says so rather than show a switch that seems to do nothing.
 *
 * What must stay true: turning it off is said to keep what it made (the core deletes nothing); the switch shows the
 * choice at once and, refused, goes back to what the core has and says why.
 */
import { useId, useState } from "react";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { useExperimentalSettings } from "../state/use-experimental-settings.js";

export function ExperimentalSettingsSection() {
  const { bridge } = useServices();
  const headingId = useId();
  const hintId = useId();
  const { settings, error, show } = useExperimentalSettings();
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  /** What the person just chose, shown at once while the core saves it; null: the core's value. */
  const [pending, setPending] = useState<boolean | null>(null);

  const turn = async (on: boolean) => {
    setPending(on);
    try {
      const after = await bridge.api.updateExperimentalSettings({ enableAgentChat: on });
      show(after);
      setMessage({ kind: "ok", text: on ? "Agent chat is on: Agents is in the sidebar." : "Agent chat is off. Your agent profiles are kept." });
    } catch (failure) {
      setMessage({ kind: "error", text: describeError(failure) });
    } finally {
      setPending(null);
    }
  };

  return (
    <section className="settings-section experimental-settings" aria-labelledby={headingId}>
      <h3 className="settings-heading" id={headingId}>
        Experimental
      </h3>
      {error && <p className="panel-error">{error}</p>}
      {!settings && !error && <p className="panel-empty">Loading…</p>}
      {settings && (
        <>
          <label className="toggle">
            <input type="checkbox" checked={pending ?? settings.enableAgentChat} disabled={pending !== null} aria-describedby={hintId} onChange={(e) => void turn(e.target.checked)} />
            <span>Agent chat</span>
          </label>
          <p className="field-hint" id={hintId}>
            Adds Agents to the sidebar: agent profiles shared with your team (kept on this device without a team relay). Turning it off hides
            them and keeps them.
          </p>
          {settings.agentChatByCommandLine && (
            <p className="field-hint" role="note">
              This run was started with <code>--enable-agent-chat</code> (or <code>CHOPIN_ENABLE_AGENT_CHAT=1</code>): agent chat stays on until
              Chopin starts without it. What you choose here applies then.
            </p>
          )}
          <p className={message?.kind === "error" ? "form-message is-error" : "form-message"} role={message?.kind === "error" ? "alert" : "status"}>
            {message?.text ?? ""}
          </p>
        </>
      )}
    </section>
  );
}
