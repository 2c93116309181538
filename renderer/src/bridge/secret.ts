/**
 * Host mode's per-launch secret arrives in the URL fragment (`#secret=S`), which browsers never send to a server.
 * It is kept in sessionStorage so a reload still works, and the fragment is cleared at once so the secret is not
 * shown in the address bar, copied with the URL, or left in history.
 */
export const SECRET_STORAGE_KEY = "chopin.host-secret";

export interface SecretEnvironment {
  location: Pick<Location, "hash" | "pathname" | "search">;
  storage: Pick<Storage, "getItem" | "setItem">;
  history: Pick<History, "replaceState" | "state">;
}

/** Returns the secret from the fragment (remembering it) or from the session; null when there is none. */
export function takeHostSecret(env: SecretEnvironment): string | null {
  const fragment = env.location.hash.startsWith("#") ? env.location.hash.slice(1) : env.location.hash;
  const fromFragment = new URLSearchParams(fragment).get("secret");
  if (fromFragment) {
    env.storage.setItem(SECRET_STORAGE_KEY, fromFragment);
    env.history.replaceState(env.history.state, "", env.location.pathname + env.location.search);
    return fromFragment;
  }
  return env.storage.getItem(SECRET_STORAGE_KEY);
}

/** Drops the remembered secret once the core has refused it, so a reload asks for the printed link instead. */
export function forgetHostSecret(storage: Pick<Storage, "removeItem">): void {
  storage.removeItem(SECRET_STORAGE_KEY);
}
