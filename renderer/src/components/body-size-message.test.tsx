// @vitest-environment jsdom
/** An edit refused for the body's size is said in words beside the editor, and the document is left unchanged. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import type { DocHandle } from "@automerge/automerge-repo";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../../shared/limits.js";

afterEach(cleanupApps);

const refusal = () => document.querySelector(".editor-refusal") as HTMLElement;

describe("the body's size limit in the window", () => {
  it("refuses a paste past the limit with a sentence in a live region; the next accepted edit clears it", async () => {
    const { bridge, services, core } = renderApp();
    const doc = await bridge.api.createDocument({ title: "Plan", markdown: "# Plan\n" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Plan") !== null, "listed");
    fireEvent.click(within(nav).getByText("Plan"));
    await until(() => services.editor.getState().view?.state.readOnly === false, "the editor bound");
    const view = services.editor.getState().view!;
    const region = refusal();
    expect(region.getAttribute("role")).toBe("status");
    expect(region.textContent).toBe("");

    view.dispatch({ changes: { from: 7, insert: "x".repeat(MAX_DOCUMENT_MARKDOWN_BYTES) }, userEvent: "input.paste" });
    await until(() => refusal().textContent !== "", "the sentence");
    expect(refusal()).toBe(region);
    expect(region.textContent).toBe("That paste would make this plan larger than 256 KiB, the most a plan can hold; nothing was pasted.");
    expect(view.state.doc.toString()).toBe("# Plan\n");
    const coreHandle = (await core.find(doc.url as never)) as DocHandle<{ text: string }>;
    expect(coreHandle.doc().text).toBe("# Plan\n");

    view.dispatch({ changes: { from: 7, insert: "ok" }, userEvent: "input.type" });
    await until(() => refusal().textContent === "", "the sentence cleared");
    await until(() => coreHandle.doc().text === "# Plan\nok", "the accepted edit synced");
  });
});
