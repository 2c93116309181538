/**
 * The Planner-ownership part of the window's test double (memory-bridge.ts): the PlannerApi contract kept in memory
 * (shared/api-contract.ts runs against it and the real core alike). There is one app here, so a message to the Planner
 * makes this app the owner when its person is signed in; tests play another app's claim through `setOwner`.
 */
import { PLANNER_PROVIDER_TYPES, type DocumentDetail, type PlannerApi, type PlannerSettings, type PlannerState } from "../../../shared/api.js";
import { ChopinError } from "../../../shared/errors.js";
import type { MemoryConversations } from "./memory-conversations.js";

export interface MemoryPlannerDeps {
  plan(id: string): DocumentDetail;
  /** The signed-in GitHub login, or null. */
  login(): string | null;
  personName(): string;
  conversations: Pick<MemoryConversations, "receive">;
  changed(state: PlannerState): void;
  settingsChanged(settings: PlannerSettings): void;
}

export interface MemoryPlanner extends PlannerApi {
  /** The Planner was asked for in a plan (a message to it was sent). */
  invoke(id: string): void;
  /** Another app took the Planner here (or nobody holds it: null): as the keeper would push it. */
  setOwner(id: string, owner: { user: string; device: string } | null): void;
}

const THIS_DEVICE = "device-memory";

export function memoryPlanner(deps: MemoryPlannerDeps): MemoryPlanner {
  const channels = new Map<string, { generation: number; sessions: number; owner: PlannerState["owner"]; refusal?: PlannerState["refusal"] }>();
  const channel = (id: string) => {
    deps.plan(id);
    let known = channels.get(id);
    if (!known) channels.set(id, (known = { generation: 0, sessions: 0, owner: null }));
    return known;
  };
  // This app's Planner settings: the key is kept here (never returned) with the address it was given for.
  let settings: PlannerSettings = { enabled: true, offByEnvironment: false, provider: null, commandLineProvider: null };
  let keyFor: string | null = null;
  const view = (id: string): PlannerState => {
    const { generation, sessions, owner, refusal } = channel(id);
    const ownedHere = owner?.device === THIS_DEVICE;
    return {
      documentId: id,
      owner,
      ownedHere,
      ownershipGeneration: generation,
      sessionGeneration: sessions,
      state: owner === null ? "unowned" : ownedHere ? "running-here" : "running-elsewhere",
      keeper: deps.plan(id).shared ? "relay" : "this-device",
      offHere: !settings.enabled || settings.offByEnvironment,
      ...(refusal ? { refusal } : {}),
    };
  };
  const setOwner = (id: string, owner: PlannerState["owner"]) => {
    const known = channel(id);
    if (owner !== null && (known.owner?.user !== owner.user || known.owner.device !== owner.device)) known.generation++;
    known.owner = owner;
    deps.changed(view(id));
  };
  return {
    setOwner,
    async getPlannerSettings() {
      return settings;
    },
    async updatePlannerSettings(patch) {
      let provider = settings.provider;
      if (patch.provider === null) {
        provider = null;
        keyFor = null;
      } else if (patch.provider !== undefined) {
        const { type, baseUrl, model, apiKey } = patch.provider;
        if (!PLANNER_PROVIDER_TYPES.includes(type)) throw new ChopinError("invalid-input", `Provider: the provider is one of ${PLANNER_PROVIDER_TYPES.join(", ")}.`);
        if (!/^https?:\/\//.test(baseUrl)) throw new ChopinError("invalid-input", "Address: the provider's address starts with http:// or https://.");
        if (model.trim() === "") throw new ChopinError("invalid-input", "Model: the model's name is needed.");
        const endpoint = `${type} ${baseUrl}`;
        if (!apiKey && keyFor !== endpoint) throw new ChopinError("invalid-input", "API key: enter the key for this address; a key is only ever sent to the address it was given for.");
        keyFor = endpoint;
        provider = { type, baseUrl, model: model.trim(), keySet: true };
      }
      settings = { ...settings, provider, ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}) };
      deps.settingsChanged(settings);
      for (const id of channels.keys()) deps.changed(view(id));
      return settings;
    },
    invoke(id) {
      const known = channel(id);
      if (known.owner !== null) return;
      if (!settings.enabled) {
        known.refusal = { code: "not-configured", message: "The Planner is turned off on this app." };
        deps.changed(view(id));
        return;
      }
      const login = deps.login();
      if (login === null) {
        known.refusal = { code: "unauthorized", message: "Sign in to GitHub to run the Planner here: it runs on your GitHub Copilot access." };
        deps.changed(view(id));
        return;
      }
      delete known.refusal;
      setOwner(id, { user: login, device: THIS_DEVICE });
    },
    async getPlannerState(id) {
      return view(id);
    },
    async resetPlannerOwnership(id) {
      const known = channel(id);
      if (known.owner !== null) {
        const who = known.owner.user;
        known.owner = null;
        known.sessions++;
        deps.conversations.receive(id, { author: { kind: "system" }, text: `${deps.personName()} reset Planner ownership: ${who}'s app (ownership generation ${known.generation}) no longer runs the Planner here.` });
      }
      delete known.refusal;
      const state = view(id);
      deps.changed(state);
      return state;
    },
  };
}
