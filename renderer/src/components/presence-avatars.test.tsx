// @vitest-environment jsdom
/** "Also here" lists teammates only while this window hears its core; without it the list would go stale. */
import { afterEach, describe, expect, it } from "vitest";
import { act, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

describe("who is here", () => {
  it("names teammates, and shows no one while the core cannot be heard", async () => {
    const app = renderApp();
    await app.bridge.api.createDocument({ title: "Plan" });
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Plan") !== null, "listed");
    act(() => within(nav).getByText("Plan").click());
    await until(() => app.services.editor.getState().view?.state.readOnly === false, "open");
    await until(() => app.services.connection.getState().core === "open", "the core heard");
    act(() => app.services.editor.setState({ peers: [{ peerId: "p1", name: "Alice", color: "#333" }] as never }));
    expect(screen.getByRole("list", { name: "Also here: Alice" })).toBeTruthy();
    act(() => app.services.connection.setState({ core: "closed" } as never));
    expect(screen.queryByRole("list", { name: /Also here/ })).toBeNull();
    act(() => app.services.connection.setState({ core: "open" } as never));
    expect(screen.getByRole("list", { name: "Also here: Alice" })).toBeTruthy();
  });
});
