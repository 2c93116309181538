// @vitest-environment jsdom
/** The title field never cuts or reverts silently: the length limit and an emptied title are said in words. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithPlanOpen } from "../test/render-app.js";
import { MAX_TITLE_CHARS } from "../../../shared/limits.js";

afterEach(cleanupApps);

const titleBox = () => screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;

const openPlan = () => renderAppWithPlanOpen("Plan");

describe("title hints", () => {
  it(`say so when the title reaches MAX_TITLE_CHARS (${MAX_TITLE_CHARS}), and not below it`, async () => {
    await openPlan();
    fireEvent.focus(titleBox());
    fireEvent.change(titleBox(), { target: { value: "x".repeat(MAX_TITLE_CHARS - 1) } });
    expect(screen.queryByRole("textbox", { name: "Document title", description: /at most/ })).toBeNull();
    fireEvent.change(titleBox(), { target: { value: "x".repeat(MAX_TITLE_CHARS) } });
    expect(screen.getByRole("textbox", { name: "Document title", description: "Titles are at most 120 characters." })).toBe(titleBox());
    expect(titleBox().maxLength).toBe(MAX_TITLE_CHARS);
  });

  it("say which title was kept when the field was emptied", async () => {
    const { bridge } = await openPlan();
    fireEvent.focus(titleBox());
    fireEvent.change(titleBox(), { target: { value: "   " } });
    fireEvent.blur(titleBox());
    await until(() => titleBox().value === "Plan", "the title back");
    expect(screen.getByRole("textbox", { name: "Document title", description: "A title cannot be empty; kept “Plan”." })).toBe(titleBox());
    expect(bridge.calls.some((c) => c.method === "renameDocument")).toBe(false);
    // Coming back to the field (the next attempt) clears it.
    fireEvent.focus(titleBox());
    expect(titleBox().getAttribute("aria-describedby")).not.toBeNull();
    expect(document.getElementById(titleBox().getAttribute("aria-describedby")!)!.textContent).toBe("");
  });

  it("say nothing of one plan's emptied title once another plan is open", async () => {
    const { bridge } = await openPlan();
    await bridge.api.createDocument({ title: "Other" });
    fireEvent.focus(titleBox());
    fireEvent.change(titleBox(), { target: { value: "" } });
    fireEvent.blur(titleBox());
    await until(() => screen.queryByText("A title cannot be empty; kept “Plan”.") !== null, "the hint");
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Other") !== null, "Other listed");
    fireEvent.click(within(nav).getByText("Other"));
    await until(() => titleBox().value === "Other", "Other open");
    expect(screen.queryByText(/kept “Plan”/)).toBeNull();
  });
});
