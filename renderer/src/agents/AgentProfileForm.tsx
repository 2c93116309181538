/**
 * An agent's configuration (issue #27), reached by the gear beside it on the Agents page, or a new agent's: its name,
 * avatar colour, instructions (Markdown), the model it runs on (the team default, or a provider and model), and the
 * tools it may use. The Planner's name is fixed (people call it with @Planner); everything else of it can change.
 *
 * What must stay true: a save sends only the fields changed in this form since it opened, so a teammate's change of
 * another field made meanwhile stays; a refused save keeps what was typed and says which field is wrong (the core's
 * sentence names it); nothing here decides what is valid, the core does.
 */
import { useId, useRef, useState, type FormEvent } from "react";
import type { AgentPatch, AgentProfile } from "../../../shared/api.js";
import { MAX_AGENT_INSTRUCTIONS_BYTES, MAX_AGENT_MODEL_CHARS, MAX_AGENT_NAME_CHARS } from "../../../shared/limits.js";
import {
  AGENT_COLORS,
  AGENT_PROFILE_FIELDS,
  AGENT_PROVIDERS,
  AGENT_TOOL_NAMES,
  DEFAULT_AGENT_COLOR,
  DEFAULT_AGENT_TOOLS,
  type AgentColor,
  type AgentModelChoice,
  type AgentProvider,
  type AgentToolName,
} from "../../../shared/schema/agent-profiles.js";
import { Field } from "../components/SettingsField.js";
import { useServices } from "../state/app-services.js";
import { describeError } from "../state/describe-error.js";
import { AgentAvatar } from "./AgentAvatar.js";
import { AGENT_COLOR_LABELS, AGENT_PROVIDER_LABELS, AGENT_TOOL_LABELS } from "./agent-words.js";

type ModelPick = "team-default" | AgentProvider;

interface Draft {
  name: string;
  color: AgentColor;
  instructions: string;
  pick: ModelPick;
  modelName: string;
  tools: AgentToolName[];
}

function draftOf(profile: AgentProfile | null): Draft {
  if (!profile) return { name: "", color: DEFAULT_AGENT_COLOR, instructions: "", pick: "team-default", modelName: "", tools: [...DEFAULT_AGENT_TOOLS] };
  return {
    name: profile.name,
    color: profile.color,
    instructions: profile.instructions,
    pick: profile.model.kind === "team-default" ? "team-default" : profile.model.provider,
    modelName: profile.model.kind === "provider" ? profile.model.model : "",
    tools: [...profile.tools],
  };
}

const modelOf = (draft: Draft): AgentModelChoice => (draft.pick === "team-default" ? { kind: "team-default" } : { kind: "provider", provider: draft.pick, model: draft.modelName.trim() });
const sameModel = (a: AgentModelChoice, b: AgentModelChoice) => a.kind === b.kind && (a.kind === "team-default" || (b.kind === "provider" && a.provider === b.provider && a.model === b.model));

/** The fields this form changed since it opened (`opened`), as the core takes them. */
function changesOf(opened: Draft, now: Draft): AgentPatch {
  const patch: AgentPatch = {};
  if (now.name.trim() !== opened.name) patch.name = now.name.trim();
  if (now.color !== opened.color) patch.color = now.color;
  if (now.instructions !== opened.instructions) patch.instructions = now.instructions;
  if (!sameModel(modelOf(opened), modelOf(now))) patch.model = modelOf(now);
  if (now.tools.join() !== opened.tools.join()) patch.tools = now.tools;
  return patch;
}

export function AgentProfileForm({ profile, onDone }: { profile: AgentProfile | null; onDone: (saved: AgentProfile | null, words: string | null) => void }) {
  const { bridge } = useServices();
  const headingId = useId();
  const opened = useRef(draftOf(profile));
  const [draft, setDraft] = useState<Draft>(opened.current);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<Draft>) => {
    setError(null);
    setDraft((before) => ({ ...before, ...change }));
  };
  const builtIn = profile?.builtIn === true;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      if (!profile) {
        const made = await bridge.api.createAgent({ name: draft.name.trim(), color: draft.color, instructions: draft.instructions, model: modelOf(draft), tools: draft.tools });
        onDone(made, `Added ${made.name}.`);
        return;
      }
      const patch = changesOf(opened.current, draft);
      if (Object.keys(patch).length === 0) {
        onDone(null, "Nothing to change.");
        return;
      }
      const saved = await bridge.api.updateAgent(profile.id, patch);
      onDone(saved, `Saved ${saved.name}.`);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  const toggleTool = (name: AgentToolName, on: boolean) => set({ tools: AGENT_TOOL_NAMES.filter((tool) => (tool === name ? on : draft.tools.includes(tool))) });
  const title = profile ? `Configure ${profile.name}` : "New agent";
  return (
    <form className="agent-form" aria-labelledby={headingId} onSubmit={(e) => void save(e)}>
      <div className="agent-form-heading">
        <AgentAvatar name={draft.name || "?"} color={draft.color} size="large" />
        <h2 id={headingId}>{title}</h2>
      </div>
      <Field label={AGENT_PROFILE_FIELDS.name} hint={builtIn ? "The Planner keeps its name: people call it with @Planner." : undefined}>
        {(ids) => <input {...ids} type="text" value={draft.name} maxLength={MAX_AGENT_NAME_CHARS} readOnly={builtIn} spellCheck={false} onChange={(e) => set({ name: e.target.value })} />}
      </Field>
      <fieldset className="agent-colors">
        <legend className="field-label">{AGENT_PROFILE_FIELDS.color}</legend>
        {AGENT_COLORS.map((color) => (
          <label key={color} className="agent-color-choice">
            <input type="radio" name={`${headingId}-color`} value={color} checked={draft.color === color} onChange={() => set({ color })} />
            <span className="agent-swatch" data-color={color} aria-hidden="true" />
            <span>{AGENT_COLOR_LABELS[color]}</span>
          </label>
        ))}
      </fieldset>
      <Field label={AGENT_PROFILE_FIELDS.instructions} hint={`Markdown, given to the agent with every session (at most ${MAX_AGENT_INSTRUCTIONS_BYTES / 1024} KiB).`}>
        {(ids) => <textarea {...ids} rows={8} value={draft.instructions} onChange={(e) => set({ instructions: e.target.value })} />}
      </Field>
      <Field
        label={AGENT_PROFILE_FIELDS.model}
        hint={draft.pick === "team-default" ? "Runs on whatever the app running it uses (Settings → Planner on that app)." : "The provider's address and key are each app's own (Settings → Planner); only the provider and model are shared."}
      >
        {(ids) => (
          <select {...ids} value={draft.pick} onChange={(e) => set({ pick: e.target.value as ModelPick })}>
            <option value="team-default">Team default</option>
            {AGENT_PROVIDERS.map((provider) => (
              <option key={provider} value={provider}>
                {AGENT_PROVIDER_LABELS[provider]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {draft.pick !== "team-default" && (
        <Field label="Model name" hint={draft.pick === "azure" ? "The deployment's name." : "The model's name, as the provider lists it."}>
          {(ids) => <input {...ids} type="text" value={draft.modelName} maxLength={MAX_AGENT_MODEL_CHARS} spellCheck={false} onChange={(e) => set({ modelName: e.target.value })} />}
        </Field>
      )}
      <fieldset className="agent-tools">
        <legend className="field-label">{AGENT_PROFILE_FIELDS.tools}</legend>
        {AGENT_TOOL_NAMES.map((tool) => (
          <label key={tool} className="agent-tool-choice">
            <input type="checkbox" checked={draft.tools.includes(tool)} onChange={(e) => toggleTool(tool, e.target.checked)} />
            <span>{AGENT_TOOL_LABELS[tool]}</span> <code>{tool}</code>
          </label>
        ))}
      </fieldset>
      {error && (
        <p className="panel-error" role="alert">
          {error}
        </p>
      )}
      <div className="agent-form-actions">
        <button type="button" className="button" onClick={() => onDone(null, null)}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={busy}>
          {profile ? "Save agent" : "Add agent"}
        </button>
      </div>
    </form>
  );
}
