// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { SECRET_STORAGE_KEY, lastRefusal, recordRefusal, rememberLinked, reloadOnNewSecretLink, takeHostSecret } from "./secret.js";

const env = () => ({ location: window.location, storage: window.sessionStorage, history: window.history });

describe("takeHostSecret", () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    window.history.replaceState(null, "", "/index.html");
  });

  it("reads the fragment, keeps it for the session and clears it from the address", () => {
    window.history.replaceState(null, "", "/index.html?x=1#secret=abc123");
    expect(takeHostSecret(env())).toBe("abc123");
    expect(window.location.hash).toBe("");
    expect(window.location.search).toBe("?x=1");
    expect(window.sessionStorage.getItem(SECRET_STORAGE_KEY)).toBe("abc123");
  });

  it("survives a reload without the fragment", () => {
    window.history.replaceState(null, "", "/#secret=s1");
    takeHostSecret(env());
    expect(takeHostSecret(env())).toBe("s1");
  });

  it("a new fragment replaces the remembered secret", () => {
    window.sessionStorage.setItem(SECRET_STORAGE_KEY, "old");
    window.history.replaceState(null, "", "/#secret=new");
    expect(takeHostSecret(env())).toBe("new");
  });

  it("returns null when there is no secret anywhere", () => {
    expect(takeHostSecret(env())).toBeNull();
  });
});

describe("refusals", () => {
  beforeEach(() => window.sessionStorage.clear());

  it("a refused secret that this tab linked with before means Chopin was restarted; both are forgotten", () => {
    window.sessionStorage.setItem(SECRET_STORAGE_KEY, "s1");
    rememberLinked(window.sessionStorage, "s1");
    expect(recordRefusal(window.sessionStorage, "s1")).toBe("restarted");
    expect(lastRefusal(window.sessionStorage)).toBe("restarted");
    expect(window.sessionStorage.getItem(SECRET_STORAGE_KEY)).toBeNull();
    // Linking again (a new link) clears the refusal.
    rememberLinked(window.sessionStorage, "s2");
    expect(lastRefusal(window.sessionStorage)).toBeNull();
  });

  it("a refused secret that never linked here is a stale (or mistyped) link", () => {
    rememberLinked(window.sessionStorage, "old");
    expect(recordRefusal(window.sessionStorage, "typed-wrong")).toBe("stale");
    expect(lastRefusal(window.sessionStorage)).toBe("stale");
  });
});

describe("a new link pasted into the same tab", () => {
  it("reloads the page when the fragment carries a secret, and not for any other fragment", () => {
    const listeners: (() => void)[] = [];
    let reloads = 0;
    const win = {
      location: { hash: "", reload: () => void reloads++ },
      addEventListener: (_type: string, listener: () => void) => void listeners.push(listener),
      removeEventListener: () => {},
    };
    reloadOnNewSecretLink(win as never);
    win.location.hash = "#outline";
    listeners.forEach((l) => l());
    expect(reloads).toBe(0);
    win.location.hash = "#secret=new-one";
    listeners.forEach((l) => l());
    expect(reloads).toBe(1);
  });
});
