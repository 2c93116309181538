// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from "vitest";
import { SECRET_STORAGE_KEY, takeHostSecret } from "./secret.js";

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
