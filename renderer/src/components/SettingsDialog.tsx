/**
 * Settings: display name, relay URL and token, the GitHub account, the Planner, experimental features, and how to connect a coding agent over MCP. The token field is
 * write-only: it starts empty, shows only whether a token is stored, and is cleared after saving.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useStore } from "zustand";
import type { McpConnectionInfo, SettingsPatch } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Dialog } from "./Dialog.js";
import { GitHubAccountSection } from "./GitHubAccountSection.js";
import { PlannerSettingsSection } from "./PlannerSettingsSection.js";
import { ExperimentalSettingsSection } from "./ExperimentalSettingsSection.js";
import { Field } from "./SettingsField.js";
import { CopyButton } from "./CopyButton.js";
import { relayCheck } from "./relay-check.js";
import { relayUrlWarning } from "./relay-url-warning.js";
import { ThemePicker } from "./ThemePicker.js";

/** Saved with a relay address but no token: nothing connects until the token is added. */
export const RELAY_WITHOUT_TOKEN =
  "Saved, but there is no relay token: Chopin cannot join the team and stays local until you add the token your team gave you.";

export function SettingsDialog() {
  const { ui, session, bridge, connection } = useServices();
  const settings = useStore(session, (s) => s.settings);
  const sync = useStore(connection, (s) => s.sync);
  const joining = useStore(ui, (s) => s.settingsFocus === "relay");
  const [displayName, setDisplayName] = useState(settings?.displayName ?? "");
  const [relayUrl, setRelayUrl] = useState(settings?.relayUrl ?? "");
  const [token, setToken] = useState("");
  const [removeToken, setRemoveToken] = useState(false);
  /** "relay": the last save changed the relay, and what is said is joining's outcome, followed live (relay-check.ts). */
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | "relay" | null>(null);
  const [busy, setBusy] = useState(false);
  const [mcp, setMcp] = useState<McpConnectionInfo | null>(null);
  const [mcpError, setMcpError] = useState<string | null>(null);

  useEffect(() => {
    bridge.api.getMcpInfo().then(setMcp, (e) => setMcpError(describeError(e)));
  }, [bridge]);
  /**
   * Fields the person changed since the last save: settings that arrive meanwhile (loaded late, saved in another
   * window) never overwrite what they typed.
   */
  const edited = useRef({ displayName: false, relayUrl: false });
  useEffect(() => {
    if (!settings) return;
    if (!edited.current.displayName) setDisplayName(settings.displayName);
    if (!edited.current.relayUrl) setRelayUrl(settings.relayUrl ?? "");
  }, [settings]);

  const close = () => ui.getState().closeDialog();
  const shown = message === "relay" ? relayCheck(sync, settings?.relayUrl ?? null) : message;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const patch: SettingsPatch = {};
    if (displayName.trim() !== settings?.displayName) patch.displayName = displayName.trim();
    const url = relayUrl.trim() || null;
    if (url !== (settings?.relayUrl ?? null)) patch.relayUrl = url;
    if (token) patch.relayToken = token;
    else if (removeToken) patch.relayToken = null;
    if (Object.keys(patch).length === 0) {
      setMessage({ kind: "ok", text: "Nothing to change." });
      return;
    }
    setBusy(true);
    const failure = await session.getState().updateSettings(patch);
    setBusy(false);
    if (failure) setMessage({ kind: "error", text: failure });
    else {
      setToken("");
      setRemoveToken(false);
      const saved = session.getState().settings;
      edited.current = { displayName: false, relayUrl: false };
      if (saved) {
        setDisplayName(saved.displayName);
        setRelayUrl(saved.relayUrl ?? "");
      }
      // A relay address alone connects nothing: say so, or "saved" reads as "joined" while the status says local only.
      if (saved?.relayUrl && !saved.relayTokenSet) setMessage({ kind: "error", text: RELAY_WITHOUT_TOKEN });
      else if (saved?.relayUrl && ("relayUrl" in patch || "relayToken" in patch)) setMessage("relay");
      else setMessage({ kind: "ok", text: "Settings saved." });
    }
  };

  return (
    <Dialog title="Settings" onClose={close} className="dialog-settings">
      {/* An edit makes the last save's answer stale: it goes until the next save. */}
      <form className="settings-form" onSubmit={(e) => void save(e)} onChange={() => setMessage(null)}>
        <section className="settings-section">
          <h3 className="settings-heading">You</h3>
          <Field label="Display name" hint="Shown to people you work with, next to your caret.">
            {(ids) => (
              // No maxLength: the browser would cut a pasted name without a word; the core refuses a long one and says why.
              <input
                {...ids}
                value={displayName}
                onChange={(e) => {
                  edited.current.displayName = true;
                  setDisplayName(e.target.value);
                }}
                required
              />
            )}
          </Field>
        </section>
        <section className="settings-section">
          <h3 className="settings-heading">Appearance</h3>
          <ThemePicker />
        </section>
        <section className="settings-section">
          <h3 className="settings-heading">Team relay</h3>
          <Field label="Relay URL" hint="Leave empty to keep everything on this device." warning={relayUrlWarning(relayUrl)}>
            {(ids) => (
              <input
                {...ids}
                // Text, not "url": the browser's own check stopped the save with its own words before ours.
                type="text"
                inputMode="url"
                value={relayUrl}
                placeholder="wss://relay.example.com"
                // Opened by "Join a team…": the relay address is what the person came to type.
                data-autofocus={joining ? true : undefined}
                onChange={(e) => {
                  edited.current.relayUrl = true;
                  setRelayUrl(e.target.value);
                }}
                spellCheck={false}
              />
            )}
          </Field>
          <Field
            label="Relay token"
            hint={
              // The core forgets a token when its address changes (it belongs to the relay it was given for).
              settings?.relayTokenSet && token === "" && (relayUrl.trim() || null) !== (settings.relayUrl ?? null)
                ? "The stored token belongs to the old relay address and will be forgotten: paste this relay's token."
                : "Stored on this device only; it is never shown again."
            }
          >
            {(ids) => (
              <input
                {...ids}
                type="password"
                value={token}
                autoComplete="off"
                placeholder={settings?.relayTokenSet ? "A token is stored — type to replace it" : "Paste the token from your relay admin"}
                onChange={(e) => {
                  setToken(e.target.value);
                  setRemoveToken(false);
                }}
              />
            )}
          </Field>
          {settings?.relayTokenSet && (
            <label className="toggle">
              <input type="checkbox" checked={removeToken} onChange={(e) => setRemoveToken(e.target.checked)} disabled={token !== ""} />
              <span>Remove the stored token</span>
            </label>
          )}
        </section>
        <div className="dialog-actions">
          {shown && (
            <span className={`form-message is-${shown.kind}`} role={shown.kind === "error" ? "alert" : "status"}>
              {shown.text}
            </span>
          )}
          <button type="button" className="button" onClick={close}>
            Close
          </button>
          {/* aria-disabled, not disabled: a disabled button drops the focus it holds (to the page), mid-dialog. */}
          <button type="submit" className="button button-primary" aria-disabled={busy || undefined}>
            Save settings
          </button>
        </div>
      </form>
      <GitHubAccountSection />
      <PlannerSettingsSection />
      <section className="settings-section mcp" aria-labelledby="mcp-heading">
        <h3 className="settings-heading" id="mcp-heading">
          Connect a coding agent
        </h3>
        {mcpError && <p className="panel-error">{mcpError}</p>}
        {!mcp && !mcpError && <p className="panel-empty">Loading…</p>}
        {mcp && (
          <>
            {mcp.portChangedFrom !== undefined && (
              <p className="panel-error" role="alert">
                The MCP port changed: port {mcp.portChangedFrom}, used last time, was taken, so this launch uses{" "}
                <code>{mcp.url}</code>. Agents set up with the old address cannot connect: run their command again.
              </p>
            )}
            <p className="field-hint">
              Agents reach your plans over MCP at <code>{mcp.url}</code>. The config file is <code>{mcp.configPath}</code>.
            </p>
            <CopyRow label="Copilot CLI" command={mcp.commands.copilotCli} />
            <CopyRow label="Claude Code" command={mcp.commands.claudeCode} />
            <CopyRow label="Codex" command={mcp.commands.codex} />
            <p className="field-hint">
              Codex reads the token from <code>CHOPIN_MCP_TOKEN</code> when it runs: the command sets it for this shell
              only, so also add that export line to your shell profile.
            </p>
          </>
        )}
      </section>
      <ExperimentalSettingsSection />
    </Dialog>
  );
}

function CopyRow({ label, command }: { label: string; command: string }) {
  return (
    <div className="copy-row">
      <span className="copy-label">{label}</span>
      {/* Focusable: a long command scrolls sideways, and a keyboard user must be able to scroll it too. */}
      <code className="copy-command" tabIndex={0} aria-label={`${label} command: ${command}`}>
        {command}
      </code>
      <CopyButton text={command} name={`Copy ${label} command`} what={`the ${label} command`} />
    </div>
  );
}
