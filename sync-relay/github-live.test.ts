/**
 * GITHUB_ADMISSION_REVERIFY_MS at its edge: a tracked GitHub-admitted token is re-verified by default exactly that
 * long after the relay started tracking, not sooner. The admission here refuses every token, so the first pass is
 * visible as a cut; what GitHub answers is covered by github-admission.test.ts and relay-github.test.ts.
 */
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GITHUB_ADMISSION_REVERIFY_MS } from "./limits.js";
import type { GitHubAdmission } from "./admission/github-admission.js";
import { startLiveReverification } from "./admission/live-reverify.js";
import { startLiveGitHubSockets } from "./github-live.js";

afterEach(() => {
  vi.useRealTimers();
});

const refusing = (asked: string[]): GitHubAdmission => ({
  verify: async (token) => {
    asked.push(token);
    return { ok: false, code: "not-admitted", reason: "no longer admitted" };
  },
  forget: () => undefined,
});

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("GitHub live re-verification pace", () => {
  it("re-verifies tracked tokens GITHUB_ADMISSION_REVERIFY_MS after start by default, not a millisecond sooner", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const asked: string[] = [];
    const cuts: string[] = [];
    const live = startLiveGitHubSockets({ admission: refusing(asked), cut: (hash) => (cuts.push(hash), 1) });
    live.track(new EventEmitter(), "gho_token", "hash-1");
    vi.advanceTimersByTime(GITHUB_ADMISSION_REVERIFY_MS - 1);
    await settle();
    expect(asked).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(asked).toEqual(["gho_token"]);
    expect(cuts).toEqual(["hash-1"]);
    live.stop();
  });

  it("the re-verifier on its own defaults to the same pace", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const asked: string[] = [];
    const reverifier = startLiveReverification({
      admission: refusing(asked),
      connections: () => [{ token: "gho_token", cutOff: () => undefined }],
    });
    vi.advanceTimersByTime(GITHUB_ADMISSION_REVERIFY_MS - 1);
    await settle();
    expect(asked).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await settle();
    expect(asked).toHaveLength(1);
    reverifier.stop();
  });
});
