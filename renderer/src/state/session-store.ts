/**
 * Who this person is (identity for presence) and their settings. The relay token is write-only: the core only says
 * whether one is stored, and this store never holds it after sending it.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { ChopinApi, ChopinBridge, Identity, Settings, SettingsPatch } from "../../../shared/api.js";
import { describeError } from "./describe-error.js";

export interface SessionState {
  identity: Identity | null;
  settings: Settings | null;
  load(): Promise<void>;
  /** Resolves with null on success, or the reason it failed in words. */
  updateSettings(patch: SettingsPatch): Promise<string | null>;
}

export type SessionStore = StoreApi<SessionState> & { start(): () => void };

export function createSessionStore(bridge: ChopinBridge): SessionStore {
  const api: ChopinApi = bridge.api;
  const store = createStore<SessionState>((set) => ({
    identity: null,
    settings: null,
    async load() {
      const [identity, settings] = await Promise.all([api.getIdentity().catch(() => null), api.getSettings().catch(() => null)]);
      set({ ...(identity ? { identity } : {}), ...(settings ? { settings } : {}) });
    },
    async updateSettings(patch) {
      try {
        const settings = await api.updateSettings(patch);
        set({ settings });
        if (patch.displayName !== undefined) {
          const identity = await api.getIdentity().catch(() => null);
          if (identity) set({ identity });
        }
        return null;
      } catch (error) {
        return describeError(error);
      }
    },
  }));
  return Object.assign(store, {
    start() {
      void store.getState().load();
      return bridge.on("settings-changed", (settings) => {
        store.setState({ settings });
        void api.getIdentity().then((identity) => store.setState({ identity }), () => {});
      });
    },
  });
}
