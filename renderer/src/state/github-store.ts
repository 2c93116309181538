/**
 * The GitHub sign-in as this window shows it: the core's AuthState, kept current from 'auth-state' events (the core
 * announces every change, including the device flow finishing). Nothing else in the window waits on it: a
 * signed-out app edits documents exactly as a signed-in one does.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { AuthState, ChopinBridge, StartSignInOptions } from "../../../shared/api.js";
import { describeError } from "./describe-error.js";

export interface GitHubState {
  auth: AuthState | null;
  /** A failure of the last action, in words; cleared by the next action. */
  actionError: string | null;
  busy: boolean;
  load(): Promise<void>;
  startSignIn(options: StartSignInOptions): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(): Promise<void>;
}

export type GitHubStore = StoreApi<GitHubState> & { start(): () => void };

export function createGitHubStore(bridge: ChopinBridge): GitHubStore {
  const api = bridge.api;
  let version = 0;
  const store = createStore<GitHubState>((set) => {
    /** Runs an action; its answer is applied only if no event arrived meanwhile (events are newer). */
    const act = async (call: () => Promise<AuthState>) => {
      set({ busy: true, actionError: null });
      const asked = ++version;
      try {
        const auth = await call();
        if (asked === version) set({ auth });
      } catch (error) {
        set({ actionError: describeError(error) });
      } finally {
        set({ busy: false });
      }
    };
    return {
      auth: null,
      actionError: null,
      busy: false,
      async load() {
        const asked = ++version;
        try {
          const auth = await api.getAuthState();
          if (asked === version) set({ auth });
        } catch {
          // The core is unreachable; the connection state says so and the next "open" reloads.
        }
      },
      startSignIn: (options) => act(() => api.startSignIn(options)),
      cancelSignIn: () => act(() => api.cancelSignIn()),
      signOut: () => act(() => api.signOut()),
    };
  });
  return Object.assign(store, {
    start() {
      const off = bridge.on("auth-state", (auth) => {
        version++;
        store.setState({ auth });
      });
      void store.getState().load();
      return off;
    },
  });
}
