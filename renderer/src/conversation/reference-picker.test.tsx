// @vitest-environment jsdom
/**
 * The composer's `#` picker against the window's test double (issue #26): `#` and letters offer matching documents
 * (never the plan itself), the keyboard picks one, the `#words` leave the text and a chip stays, the message carries
 * the reference (shown under it as a link); Escape closes the list; a chip can be removed before sending.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithConversationOpen } from "../test/render-app.js";
import type { DocumentDetail } from "../../../shared/api.js";
import { referenceQueryAt } from "./reference-picker.js";

afterEach(cleanupApps);

describe("the # at the caret", () => {
  it("is found at the start, after a space, with letters or none, and not inside a word", () => {
    expect(referenceQueryAt("#sp", 3)).toEqual({ start: 0, query: "sp" });
    expect(referenceQueryAt("see #", 5)).toEqual({ start: 4, query: "" });
    expect(referenceQueryAt("see #spec now", 9)).toEqual({ start: 4, query: "spec" });
    expect(referenceQueryAt("issue#4", 7)).toBeNull();
    expect(referenceQueryAt("see #spec now", 13)).toBeNull();
  });
});

async function openConversation() {
  let spec = null as unknown as DocumentDetail;
  const { app, plan } = await renderAppWithConversationOpen("Launch", async (bridge) => {
    spec = await bridge.api.createDocument({ title: "Spec" });
    await bridge.api.createDocument({ title: "Roadmap" });
  });
  return { app, plan, spec };
}

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const type = (text: string) => fireEvent.change(box(), { target: { value: text, selectionStart: text.length } });

describe("the composer's # picker", () => {
  it("offers matching documents, picks one with the keyboard, and sends the reference with the message", async () => {
    const { app, plan, spec } = await openConversation();
    type("@Planner compare with #");
    await until(() => screen.queryByRole("listbox", { name: "Documents to reference" }) !== null, "the picker");
    const options = () => within(screen.getByRole("listbox", { name: "Documents to reference" })).getAllByRole("option").map((o) => o.textContent);
    expect(options()).not.toContain("#Launch");
    type("@Planner compare with #sp");
    await until(() => options().join() === "#Spec", "narrowed to Spec");
    expect(box().getAttribute("aria-activedescendant")).toBeTruthy();
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => screen.queryByRole("list", { name: "References" }) !== null, "the chip");
    expect(box().value).toBe("@Planner compare with ");
    expect(within(screen.getByRole("list", { name: "References" })).getByText("#Spec")).toBeTruthy();
    expect(screen.queryByRole("listbox", { name: "Documents to reference" })).toBeNull();
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(plan.id).length === 1, "sent");
    expect(app.bridge.conversations(plan.id)[0]!.references).toEqual([expect.objectContaining({ documentId: spec.id, title: "Spec" })]);
    const log = screen.getByRole("log", { name: "Messages" });
    await until(() => within(log).queryByRole("list", { name: "Referenced documents" }) !== null, "shown under the message");
    expect(within(within(log).getByRole("list", { name: "Referenced documents" })).getByRole("button", { name: "#Spec" })).toBeTruthy();
    expect(screen.queryByRole("list", { name: "References" })).toBeNull();
  });

  it("closes on Escape, and a chip can be removed before sending", async () => {
    const { app, plan } = await openConversation();
    type("#road");
    await until(() => screen.queryByRole("listbox", { name: "Documents to reference" }) !== null, "the picker");
    fireEvent.keyDown(box(), { key: "Escape" });
    await until(() => screen.queryByRole("listbox", { name: "Documents to reference" }) === null, "closed");
    type("see #");
    await until(() => screen.queryByRole("listbox", { name: "Documents to reference" }) !== null, "offered again at a new #");
    fireEvent.mouseDown(within(screen.getByRole("listbox", { name: "Documents to reference" })).getByText("#Roadmap"));
    await until(() => screen.queryByRole("list", { name: "References" }) !== null, "the chip");
    fireEvent.click(screen.getByRole("button", { name: "Remove the reference to Roadmap" }));
    expect(screen.queryByRole("list", { name: "References" })).toBeNull();
    type("see it");
    fireEvent.keyDown(box(), { key: "Enter" });
    await until(() => app.bridge.conversations(plan.id).length === 1, "sent");
    expect(app.bridge.conversations(plan.id)[0]!.references).toBeUndefined();
  });

  it("says a referenced document changed since, as soon as it changes", async () => {
    const { app, plan, spec } = await openConversation();
    await app.bridge.api.postMessage(plan.id, { text: "see the spec", to: "room", clientRequestId: "c-1", references: [spec.id] });
    const log = screen.getByRole("log", { name: "Messages" });
    await until(() => within(log).queryByRole("button", { name: "#Spec" }) !== null, "the reference shown");
    expect(within(log).queryByText("(changed since)")).toBeNull();
    await app.bridge.api.renameDocument(spec.id, "Spec v2");
    await until(() => within(log).queryByText("(changed since)") !== null, "said to have changed");
  });
});
