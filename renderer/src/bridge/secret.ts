/**
 * Host mode's per-launch secret arrives in the URL fragment (`#secret=S`), which browsers never send to a server.
 * It is kept in sessionStorage so a reload still works, and the fragment is cleared at once so the secret is not
 * shown in the address bar, copied with the URL, or left in history.
 */
export const SECRET_STORAGE_KEY = "chopin.host-secret";
/** The secret the core last accepted in this tab: a refusal of that same secret means Chopin was restarted. */
export const LINKED_STORAGE_KEY = "chopin.host-linked";
/** Why the core last turned this tab away ("restarted" or "stale"), for the words on the fatal screen. */
export const REFUSAL_STORAGE_KEY = "chopin.host-refusal";

/**
 * "restarted": the core accepted this tab's secret before (a new launch has a new secret); "stale": it never did (a
 * link from an earlier launch, or a mistyped one).
 */
export type RefusalKind = "restarted" | "stale";

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

/** The core accepted `secret`: remember it, and that this tab is no longer turned away. */
export function rememberLinked(storage: Pick<Storage, "setItem" | "removeItem">, secret: string): void {
  storage.setItem(LINKED_STORAGE_KEY, secret);
  storage.removeItem(REFUSAL_STORAGE_KEY);
}

/** The core refused `secret`: records why (see RefusalKind) and forgets both, so a reload asks for the new link. */
export function recordRefusal(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">, secret: string): RefusalKind {
  const kind: RefusalKind = storage.getItem(LINKED_STORAGE_KEY) === secret ? "restarted" : "stale";
  storage.setItem(REFUSAL_STORAGE_KEY, kind);
  storage.removeItem(LINKED_STORAGE_KEY);
  forgetHostSecret(storage);
  return kind;
}

/** Why this tab was last turned away, or null. */
export function lastRefusal(storage: Pick<Storage, "getItem">): RefusalKind | null {
  const kind = storage.getItem(REFUSAL_STORAGE_KEY);
  return kind === "restarted" || kind === "stale" ? kind : null;
}

/**
 * A new link pasted into this tab's address bar changes only the fragment, which does not reload the page: the page
 * would go on with the old secret (and keep saying Chopin was restarted). A fragment that carries a secret reloads
 * it, and the new secret is taken on load. Returns the listener's remover.
 */
export function reloadOnNewSecretLink(win: Pick<Window, "addEventListener" | "removeEventListener"> & { location: Pick<Location, "hash" | "reload"> }): () => void {
  const onHashChange = () => {
    const fragment = win.location.hash.startsWith("#") ? win.location.hash.slice(1) : win.location.hash;
    if (new URLSearchParams(fragment).get("secret")) win.location.reload();
  };
  win.addEventListener("hashchange", onHashChange);
  return () => win.removeEventListener("hashchange", onHashChange);
}
