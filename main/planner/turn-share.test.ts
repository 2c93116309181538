/**
 * Sharing a running turn with teammates' apps: paced (the first at once, then the latest at most every interval, the
 * end at once), bounded (the text's tail, the latest tools, short notes); and believed on arrival only from the
 * lease's holder at the lease's generation, a turn shown ending with its own end or when the lease moves on.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PlannerTurnProgress } from "../../shared/api.js";
import { PLANNER_TURN_SHARE_MAX_NOTE_CHARS, PLANNER_TURN_SHARE_MAX_TEXT_CHARS, PLANNER_TURN_SHARE_MAX_TOOLS } from "../util/limits.js";
import { RemoteTurns } from "./remote-turn.js";
import { boundedProgress, SHARED_TURN_TYPE, turnSharer, type SharedTurnMessage } from "./turn-share.js";

const progress = (text: string, done = false): PlannerTurnProgress => ({ documentId: "plan1", turnId: "t".repeat(32), text, tools: [], done });

afterEach(() => vi.useRealTimers());

describe("sharing a running turn", () => {
  it("sends the first progress at once, then only the latest per interval, and the end at once", () => {
    vi.useFakeTimers();
    const sent: SharedTurnMessage[] = [];
    const sharer = turnSharer({ send: (_plan, message) => sent.push(message), everyMs: 100 });
    sharer.update(progress("a"), 3, "dev-a");
    sharer.update(progress("ab"), 3, "dev-a");
    sharer.update(progress("abc"), 3, "dev-a");
    expect(sent.map((m) => m.progress.text)).toEqual(["a"]);
    vi.advanceTimersByTime(100);
    expect(sent.map((m) => m.progress.text)).toEqual(["a", "abc"]);
    sharer.update(progress("abcd"), 3, "dev-a");
    sharer.update(progress("abcde", true), 3, "dev-a");
    expect(sent.map((m) => [m.progress.text, m.progress.done])).toEqual([["a", false], ["abc", false], ["abcde", true]]);
    vi.advanceTimersByTime(1_000);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toMatchObject({ type: SHARED_TURN_TYPE, ownershipGeneration: 3, device: "dev-a" });
    sharer.close();
  });

  it("bounds what it sends at the edges: the text's tail, the latest tool calls, short notes", () => {
    const atBound = "x".repeat(PLANNER_TURN_SHARE_MAX_TEXT_CHARS);
    expect(boundedProgress(progress(atBound)).text).toBe(atBound);
    const over = boundedProgress(progress(`${"y".repeat(10)}${atBound}`)).text;
    expect(over).toHaveLength(PLANNER_TURN_SHARE_MAX_TEXT_CHARS);
    expect(over.startsWith("…x")).toBe(true);
    const tools = Array.from({ length: PLANNER_TURN_SHARE_MAX_TOOLS + 2 }, (_, n) => ({ id: `c${n}`, name: "read_plan", status: "done" as const }));
    const kept = boundedProgress({ ...progress(""), tools }).tools;
    expect(kept).toHaveLength(PLANNER_TURN_SHARE_MAX_TOOLS);
    expect(kept[0]!.id).toBe("c2");
    const note = (n: number) => boundedProgress({ ...progress(""), tools: [{ id: "c", name: "edit_plan", status: "failed", note: "n".repeat(n) }] }).tools[0]!.note!;
    expect(note(PLANNER_TURN_SHARE_MAX_NOTE_CHARS)).toHaveLength(PLANNER_TURN_SHARE_MAX_NOTE_CHARS);
    expect(note(PLANNER_TURN_SHARE_MAX_NOTE_CHARS + 1)).toMatch(/…$/);
    expect(note(PLANNER_TURN_SHARE_MAX_NOTE_CHARS + 1)).toHaveLength(PLANNER_TURN_SHARE_MAX_NOTE_CHARS);
  });
});

describe("a teammate's running turn, received", () => {
  const message = (over: Partial<SharedTurnMessage> = {}, text = "Drafting…", done = false): SharedTurnMessage => ({
    type: SHARED_TURN_TYPE,
    ownershipGeneration: 2,
    device: "dev-alice",
    progress: progress(text, done),
    ...over,
  });
  const owner = { generation: 2, device: "dev-alice", ownedHere: false };

  it("is believed from the lease's holder at the lease's generation, under the holder's wire id too", () => {
    const remote = new RemoteTurns();
    expect(remote.accept("plan1", "alice:dev-alice", message(), owner)).toMatchObject({ text: "Drafting…", done: false });
    expect(remote.accept("plan1", "gh:alice:dev-alice", message(), owner)).not.toBeNull();
    expect(remote.accept("plan1", "dev-alice", message(), owner)).not.toBeNull();
  });

  it("is dropped from anyone else, under another generation, for another plan, here, or malformed", () => {
    const remote = new RemoteTurns();
    // Bob's app claiming to be Alice's: the sender's device is not the holder's.
    expect(remote.accept("plan1", "bob:dev-bob", message(), owner)).toBeNull();
    expect(remote.accept("plan1", "bob:dev-bob", message({ device: "dev-bob" }), owner)).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", message({ ownershipGeneration: 1 }), owner)).toBeNull();
    expect(remote.accept("plan2", "alice:dev-alice", message(), owner)).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", message(), { ...owner, ownedHere: true })).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", message(), { ...owner, device: null })).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", { ...message(), type: "other" }, owner)).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", message({}, "z".repeat(PLANNER_TURN_SHARE_MAX_TEXT_CHARS + 1)), owner)).toBeNull();
    expect(remote.accept("plan1", "alice:dev-alice", "not an object", owner)).toBeNull();
  });

  it("ends a turn shown when the lease moves on or its holder lets go, and not otherwise", () => {
    const remote = new RemoteTurns();
    remote.accept("plan1", "alice:dev-alice", message(), owner);
    expect(remote.leaseChanged("plan1", 2, "dev-alice")).toBeNull();
    expect(remote.leaseChanged("plan1", 3, "dev-bob")).toMatchObject({ documentId: "plan1", turnId: "t".repeat(32), done: true });
    expect(remote.leaseChanged("plan1", 3, "dev-bob")).toBeNull();
    remote.accept("plan1", "alice:dev-alice", message(), owner);
    expect(remote.leaseChanged("plan1", 2, null)).toMatchObject({ done: true });
    remote.accept("plan1", "alice:dev-alice", message(), owner);
    remote.accept("plan1", "alice:dev-alice", message({}, "Done.", true), owner);
    expect(remote.leaseChanged("plan1", 3, null)).toBeNull();
  });
});
