// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { CORE_REFUSED_MESSAGE, CORE_RESTARTED_MESSAGE } from "../bridge/socket-bridge.js";
import { recordRefusal, rememberLinked } from "../bridge/secret.js";
import { windowOutbox } from "../replica/window-outbox.js";
import { until } from "../test/until.js";
import { FatalScreen, RefusedScreen, keptEditsSentence } from "./FatalScreen.js";

beforeEach(() => {
  window.sessionStorage.clear();
  window.localStorage.clear();
});
afterEach(cleanup);

const keep = (documentId: string, title: string) =>
  windowOutbox()!.put({ documentId, windowId: "w", title, heads: [], changes: ["AA=="], writtenAt: 1 });

describe("RefusedScreen", () => {
  it("says Chopin was restarted when this tab's secret had worked, and names the edits kept for the new link", async () => {
    rememberLinked(window.sessionStorage, "s");
    recordRefusal(window.sessionStorage, "s");
    keep("d1", "Launch plan");
    render(<RefusedScreen />);
    expect(screen.getByRole("main", { name: "Chopin was restarted" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe(CORE_RESTARTED_MESSAGE);
    await until(() => screen.queryByText(/Your unsaved edits to “Launch plan” were kept in this browser/) !== null, "the kept edits");
    expect(screen.queryByText(/could not start/)).toBeNull();
  });

  it("a link that never worked here is called out of date; no word of kept edits when none are kept", () => {
    render(<RefusedScreen />);
    expect(screen.getByRole("main", { name: "This link no longer works" })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toBe(CORE_REFUSED_MESSAGE);
    expect(screen.queryByText(/were kept/)).toBeNull();
  });

  it("follows the outbox: edits restored by another window are no longer promised", async () => {
    keep("d1", "Plan");
    render(<RefusedScreen />);
    await until(() => screen.queryByText(/were kept/) !== null, "the kept edits");
    act(() => {
      window.localStorage.clear();
      window.dispatchEvent(new StorageEvent("storage"));
    });
    await until(() => screen.queryByText(/were kept/) === null, "the promise withdrawn");
  });

  it("a plain fatal screen never speaks of kept edits", () => {
    keep("d1", "Plan");
    render(<FatalScreen message="The shell failed." />);
    expect(screen.getByRole("main", { name: "Chopin could not start" })).toBeTruthy();
    expect(screen.queryByText(/were kept/)).toBeNull();
  });
});

describe("keptEditsSentence", () => {
  it("names one, two, three documents, then counts the rest", () => {
    const when = "as soon as you open it";
    expect(keptEditsSentence(["A"], when)).toBe("Your unsaved edits to “A” were kept in this browser. They are restored as soon as you open it.");
    expect(keptEditsSentence(["A", "B"], when)).toContain("to “A” and “B” were kept");
    expect(keptEditsSentence(["A", "B", "C"], when)).toContain("to “A”, “B” and “C” were kept");
    expect(keptEditsSentence(["A", "B", "C", "D"], when)).toContain("to “A”, “B”, “C” and 1 more document were kept");
    expect(keptEditsSentence(["A", "B", "C", "D", "E"], when)).toContain("and 2 more documents were kept");
  });
});
