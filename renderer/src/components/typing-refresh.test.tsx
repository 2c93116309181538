// @vitest-environment jsdom
/**
 * Typing costs the core O(1) calls per interval, not one per keystroke (audit: 460 keys made 460 list reads and 460
 * document reads, and a fast typist filled the core's call queue). The core says 'documents-changed' once per change
 * it applies; the window re-reads the list and the open document at once for the first, then at most once an
 * interval (paced-changes.ts), and still ends showing the latest title, time and metadata in the sidebar and header.
 * The intervals are ended by hand here, so the counts do not depend on how fast the machine is.
 */
import { afterEach, describe, expect, it } from "vitest";
import { act, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import type { IntervalSchedule } from "../state/paced-changes.js";

afterEach(cleanupApps);

const KEYS = 100;

/** An interval schedule the test ends by hand. */
function manualIntervals() {
  const running = new Set<() => void>();
  const schedule: IntervalSchedule = (fire) => {
    running.add(fire);
    return () => running.delete(fire);
  };
  const endAll = () => {
    const ending = [...running];
    running.clear();
    ending.forEach((fire) => fire());
  };
  return { schedule, endAll, running: () => running.size };
}

async function openPlan() {
  const intervals = manualIntervals();
  const app = renderApp(undefined, { changeSchedule: intervals.schedule });
  const doc = await app.bridge.api.createDocument({ title: "Plan" });
  const nav = screen.getByRole("navigation", { name: "Documents" });
  await until(() => within(nav).queryByText("Plan") !== null, "listed");
  act(() => intervals.endAll());
  await act(() => app.services.documents.getState().open(doc.id));
  await until(() => (screen.queryByRole("textbox", { name: "Document title" }) as HTMLInputElement | null)?.value === "Plan", "the header");
  return { ...app, doc, nav, intervals };
}

describe("typing in a plan", () => {
  it(`makes a bounded number of core calls for ${KEYS} changes, and the sidebar and header end on the latest`, async () => {
    const { bridge, doc, nav, intervals } = await openPlan();
    const before = bridge.calls.length;
    const count = (method: string) => bridge.calls.slice(before).filter((c) => c.method === method).length;

    for (let i = 1; i <= KEYS; i++) {
      // The core applied one more keystroke (the last one also shared by a teammate): it says so, and answers at once.
      Object.assign(bridge.docs.get(doc.id)!, { title: `Plan ${i}`, updatedAt: Date.now() - (KEYS - i), shared: i === KEYS });
      await act(async () => bridge.emit("documents-changed", { ids: [doc.id] }));
    }
    // The first change is read at once; the rest wait for the interval to end.
    expect(count("listDocuments")).toBe(1);
    expect(count("getDocument")).toBe(1);
    expect(within(nav).queryByText(`Plan ${KEYS}`)).toBeNull();

    act(() => intervals.endAll());
    await until(() => within(nav).queryByText(`Plan ${KEYS}`) !== null, "the latest title in the sidebar");
    await until(
      () => (screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).value === `Plan ${KEYS}`,
      "the latest title in the header",
    );
    expect(screen.getByRole("banner").textContent).toContain("Shared");
    expect(within(nav).getByRole("button", { name: new RegExp(`^Plan ${KEYS}`) }).textContent).toContain("just now");
    expect(count("listDocuments")).toBe(2);
    expect(count("getDocument")).toBe(2);

    // Nothing more came: the interval after the last read ends with no read.
    act(() => intervals.endAll());
    expect(intervals.running()).toBe(0);
    expect(count("listDocuments")).toBe(2);
  });

  it("shows a teammate's single change at once after a quiet spell", async () => {
    const { bridge, doc, nav } = await openPlan();
    Object.assign(bridge.docs.get(doc.id)!, { title: "Renamed by Grace", updatedAt: Date.now() });
    act(() => bridge.emit("documents-changed", { ids: [doc.id] }));
    await until(() => within(nav).queryByText("Renamed by Grace") !== null, "the teammate's title in the sidebar");
    await until(
      () => (screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement).value === "Renamed by Grace",
      "the teammate's title in the header",
    );
  });
});
