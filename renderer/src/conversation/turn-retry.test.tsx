// @vitest-environment jsdom
/**
 * A failed or interrupted turn's Retry in a plan's conversation panel (issue #27, TurnRetry.tsx), over the window's
 * test double: the person who asked gets "Retry: <first words>", which posts the asked words to the Planner again
 * under `retry:<turnId>` (two clicks, one message; a failure of the retry retries under its own turn's id); an
 * interrupted turn offers it too; never for someone else's message, nor while a turn runs. The label's bound at its
 * edge.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { RETRY_LABEL_MAX_CHARS } from "../limits.js";
import { retryLabel, retryRequestId } from "./TurnRetry.js";

afterEach(cleanupApps);

async function openConversation() {
  const app = renderApp();
  const plan = await app.bridge.api.createDocument({ title: "Launch" });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Launch") !== null, "listed");
  fireEvent.click(within(nav).getByText("Launch"));
  await until(() => screen.queryByRole("button", { name: "Conversation" }) !== null, "open");
  fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
  await until(() => screen.queryByRole("log", { name: "Messages" }) !== null, "the panel");
  return { app, plan };
}

const log = () => screen.getByRole("log", { name: "Messages" });
const failure = (turnId: string) => ({ author: { kind: "planner" as const }, text: "The model provider failed, so the Planner could not answer: Bad gateway.", failed: true as const, turn: { id: turnId, state: "answered" as const, ownershipGeneration: 1 } });
const retryCalls = (app: ReturnType<typeof renderApp>) => app.bridge.calls.filter((c) => c.method === "postMessage" && String((c.args[1] as { clientRequestId: string }).clientRequestId).startsWith("retry:"));

describe("a failed turn's retry in a plan", () => {
  it("names the asked words, whole up to RETRY_LABEL_MAX_CHARS and cut at a word past it", () => {
    const atBound = "Draft ".repeat(10).slice(0, RETRY_LABEL_MAX_CHARS - 1) + "x";
    expect(atBound).toHaveLength(RETRY_LABEL_MAX_CHARS);
    expect(retryLabel(atBound)).toBe(`Retry: ${atBound}`);
    const past = `${atBound}y`;
    expect(retryLabel(past)).toBe(`Retry: ${"Draft ".repeat(6).trim()}…`);
    expect(retryLabel(past).length - "Retry: ".length).toBeLessThanOrEqual(RETRY_LABEL_MAX_CHARS);
    expect(retryLabel("a".repeat(RETRY_LABEL_MAX_CHARS + 1))).toBe(`Retry: ${"a".repeat(RETRY_LABEL_MAX_CHARS - 1)}…`);
    expect(retryLabel("  two\n\nlines  ")).toBe("Retry: two lines");
  });

  it("posts the asked words to the Planner once under retry:<turnId>, whatever the clicks; the retry's own failure retries under its own id", async () => {
    const { app, plan } = await openConversation();
    const asked = await app.bridge.api.postMessage(plan.id, { text: "@Planner add a risks section", to: "planner", clientRequestId: "ask" });
    app.bridge.receiveMessage(plan.id, failure(asked.entry.id));
    await until(() => within(log()).queryByText("This turn failed.", { exact: false }) !== null, "the failure shown");
    await until(() => screen.queryByRole("button", { name: "Retry: @Planner add a risks section" }) !== null, "the Retry");
    const button = screen.getByRole("button", { name: "Retry: @Planner add a risks section" });
    fireEvent.click(button);
    fireEvent.click(button);
    await until(() => retryCalls(app).length === 2, "both clicks sent");
    for (const call of retryCalls(app)) expect(call.args[1]).toEqual({ text: "@Planner add a risks section", to: "planner", clientRequestId: retryRequestId(asked.entry.id) });
    const mine = () => app.bridge.conversations(plan.id).filter((e) => e.mine);
    await until(() => mine().length === 2, "the retry posted");
    expect(mine().map((e) => [e.text, e.to])).toEqual([["@Planner add a risks section", "planner"], ["@Planner add a risks section", "planner"]]);

    // The retry fails too: its Retry derives from its own turn, a new message again.
    const retried = mine()[1]!;
    app.bridge.receiveMessage(plan.id, failure(retried.id));
    await until(() => screen.queryAllByRole("button", { name: "Retry: @Planner add a risks section" }).length === 2, "two failures, two Retries");
    fireEvent.click(screen.getAllByRole("button", { name: "Retry: @Planner add a risks section" })[1]!);
    await until(() => mine().length === 3, "the second retry posted");
    expect(retryCalls(app).at(-1)!.args[1]).toMatchObject({ clientRequestId: retryRequestId(retried.id) });
  });

  it("offers a Retry for an interrupted turn of the person's own message, not for a teammate's, and none while a turn runs", async () => {
    const { app, plan } = await openConversation();
    const first = await app.bridge.api.postMessage(plan.id, { text: "@Planner first try", to: "planner", clientRequestId: "first" });
    app.bridge.receiveMessage(plan.id, failure(first.entry.id));
    await until(() => screen.queryByRole("button", { name: "Retry: @Planner first try" }) !== null, "the failed turn's Retry");
    const asked = await app.bridge.api.postMessage(plan.id, { text: "@Planner a long job", to: "planner", clientRequestId: "long" });
    const grace = app.bridge.receiveMessage(plan.id, { author: { kind: "person", name: "Grace", login: "grace", device: "device-grace" }, to: "planner", text: "@Planner my question" });
    app.bridge.receiveMessage(plan.id, failure(grace.id));
    app.bridge.setPlannerOwner(plan.id, { user: "alice", device: "device-alice" });
    app.bridge.receiveMessage(plan.id, { author: { kind: "planner" }, text: "The Planner is working on this.", turn: { id: asked.entry.id, state: "started", ownershipGeneration: 1 } });
    await until(() => within(log()).queryByText("Working on it…") !== null, "running");
    // While a turn runs no Retry at all, the earlier failure's included.
    expect(screen.queryByRole("button", { name: /^Retry/ })).toBeNull();
    app.bridge.setPlannerOwner(plan.id, null);
    await until(() => within(log()).queryByText(/^Interrupted/) !== null, "interrupted");
    await until(() => screen.queryByRole("button", { name: "Retry: @Planner a long job" }) !== null, "the interrupted turn's Retry");
    const retry = screen.getByRole("button", { name: "Retry: @Planner a long job" });
    // The failure's Retry is back; Grace's failed message offers none here (it is hers to retry).
    expect(screen.getAllByRole("button", { name: /^Retry/ }).map((b) => b.getAttribute("aria-label"))).toEqual(["Retry: @Planner first try", "Retry: @Planner a long job"]);
    fireEvent.click(retry);
    await until(() => retryCalls(app).length === 1, "sent");
    expect(retryCalls(app)[0]!.args[1]).toMatchObject({ text: "@Planner a long job", to: "planner", clientRequestId: retryRequestId(asked.entry.id) });
  });
});
