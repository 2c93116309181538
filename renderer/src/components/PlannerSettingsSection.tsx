/**
 * The "Planner" part of Settings (issue #26): whether this app runs the Planner, and the model provider it runs on —
 * the person's GitHub Copilot access, or an OpenAI-compatible, Anthropic or Azure endpoint with its address, model
 * and API key. The key field is write-only, like the relay token's: it starts empty, says whether a key is stored, and
 * is cleared after saving. What the command line set for this run (AGENT=off, a provider) is said, not hidden.
 *
 * What must stay true: the form never shows a key; a refused save keeps what was typed and says which field is wrong.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { PLANNER_PROVIDER_TYPES, type PlannerProviderType, type PlannerSettings, type PlannerSettingsPatch } from "../../../shared/api.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { Field } from "./SettingsField.js";

type ProviderChoice = "copilot" | PlannerProviderType;

export const PROVIDER_LABELS: Record<ProviderChoice, string> = {
  copilot: "GitHub Copilot (your GitHub sign-in)",
  openai: "OpenAI-compatible",
  anthropic: "Anthropic",
  azure: "Azure OpenAI",
};

const ADDRESS_EXAMPLES: Record<PlannerProviderType, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
  azure: "https://your-resource.openai.azure.com",
};

export function PlannerSettingsSection() {
  const { bridge } = useServices();
  const headingId = useId();
  const [settings, setSettings] = useState<PlannerSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [enabled, setEnabled] = useState(true);
  const [choice, setChoice] = useState<ProviderChoice>("copilot");
  const [baseUrl, setBaseUrl] = useState("");
  const [model, setModel] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const show = (next: PlannerSettings) => {
    setSettings(next);
    setEnabled(next.enabled);
    setChoice(next.provider?.type ?? "copilot");
    setBaseUrl(next.provider?.baseUrl ?? "");
    setModel(next.provider?.model ?? "");
  };
  useEffect(() => {
    let live = true;
    bridge.api.getPlannerSettings().then(
      (loaded) => live && show(loaded),
      (failure: unknown) => live && setLoadError(describeError(failure)),
    );
    const off = bridge.on("planner-settings-changed", (next) => live && setSettings(next));
    return () => {
      live = false;
      off();
    };
  }, [bridge]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !settings) return;
    const patch: PlannerSettingsPatch = {};
    if (enabled !== settings.enabled) patch.enabled = enabled;
    if (choice === "copilot") {
      if (settings.provider !== null) patch.provider = null;
    } else {
      const same = settings.provider?.type === choice && settings.provider.baseUrl === baseUrl.trim() && settings.provider.model === model.trim();
      if (!same || apiKey !== "") patch.provider = { type: choice, baseUrl: baseUrl.trim(), model: model.trim(), ...(apiKey !== "" ? { apiKey } : {}) };
    }
    if (Object.keys(patch).length === 0) {
      setMessage({ kind: "ok", text: "Nothing to change." });
      return;
    }
    setBusy(true);
    try {
      show(await bridge.api.updatePlannerSettings(patch));
      setApiKey("");
      setMessage({ kind: "ok", text: "Planner settings saved." });
    } catch (failure) {
      setMessage({ kind: "error", text: describeError(failure) });
    } finally {
      setBusy(false);
    }
  };

  // The key belongs to the address it was given for: a stored one is kept only for the same kind and address.
  const keyKept = settings?.provider?.keySet === true && settings.provider.type === choice && settings.provider.baseUrl === baseUrl.trim();
  return (
    <section className="settings-section planner-settings" aria-labelledby={headingId}>
      <h3 className="settings-heading" id={headingId}>
        Planner
      </h3>
      {loadError && <p className="panel-error">{loadError}</p>}
      {!settings && !loadError && <p className="panel-empty">Loading…</p>}
      {settings && (
        <form className="settings-form" aria-labelledby={headingId} onSubmit={(e) => void save(e)} onChange={() => setMessage(null)}>
          <label className="toggle">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            <span>Run the Planner on this app</span>
          </label>
          {settings.offByEnvironment && (
            <p className="field-hint is-warning" role="note">
              This run was started with <code>AGENT=off</code>: the Planner stays off here until Chopin starts without it.
            </p>
          )}
          {settings.commandLineProvider && (
            <p className="field-hint" role="note">
              This run uses the provider given on the command line ({PROVIDER_LABELS[settings.commandLineProvider.type]} at{" "}
              <code>{settings.commandLineProvider.baseUrl}</code>, model <code>{settings.commandLineProvider.model}</code>). What you
              choose here applies when Chopin starts without it.
            </p>
          )}
          <Field label="Model provider" hint={choice === "copilot" ? "The Planner runs on your GitHub Copilot access: sign in to GitHub above." : undefined}>
            {(ids) => (
              <select {...ids} value={choice} onChange={(e) => setChoice(e.target.value as ProviderChoice)}>
                {(["copilot", ...PLANNER_PROVIDER_TYPES] as const).map((option) => (
                  <option key={option} value={option}>
                    {PROVIDER_LABELS[option]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {choice !== "copilot" && (
            <>
              <Field label="Address" hint="The provider's API address (with /v1 where it has one).">
                {(ids) => (
                  <input {...ids} type="text" inputMode="url" value={baseUrl} placeholder={ADDRESS_EXAMPLES[choice]} spellCheck={false} onChange={(e) => setBaseUrl(e.target.value)} />
                )}
              </Field>
              <Field label="Model" hint={choice === "azure" ? "The deployment's name." : "The model's name, as the provider lists it."}>
                {(ids) => <input {...ids} type="text" value={model} spellCheck={false} onChange={(e) => setModel(e.target.value)} />}
              </Field>
              <Field
                label="API key"
                hint={
                  settings.provider?.keySet && !keyKept
                    ? "The stored key belongs to the old address and is never sent to another: paste the key for this one."
                    : "Stored on this device only (encrypted where your system can) and sent only to this address; it is never shown again."
                }
              >
                {(ids) => (
                  <input
                    {...ids}
                    type="password"
                    value={apiKey}
                    autoComplete="off"
                    placeholder={keyKept ? "A key is stored — type to replace it" : "Paste the provider's API key"}
                    onChange={(e) => setApiKey(e.target.value)}
                  />
                )}
              </Field>
            </>
          )}
          <div className="dialog-actions">
            {message && (
              <span className={`form-message is-${message.kind}`} role={message.kind === "error" ? "alert" : "status"}>
                {message.text}
              </span>
            )}
            <button type="submit" className="button button-primary" aria-disabled={busy || undefined}>
              Save Planner settings
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
