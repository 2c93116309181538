// @vitest-environment jsdom
/**
 * A teammate's plan the team's list names before its content reached this device (issue #24): the list says it is
 * arriving, and opening it says so while the core waits for it, instead of "not available".
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

describe("a teammate's plan still arriving", () => {
  it("is listed as arriving, and opening it says it is on its way until the core has it", async () => {
    let arrive: (() => void) | null = null;
    const { services, bridge } = renderApp((b) => {
      b.settings.relayUrl = "wss://relay.example.test";
      const getDocument = b.api.getDocument.bind(b.api);
      // Nothing of it is stored on this device yet, and the core waits for it to arrive before it answers.
      b.api.openSnapshot = async () => null;
      b.api.readSavedDocument = async () => null;
      b.api.getDocument = (id) => new Promise((resolve, reject) => (arrive = () => void getDocument(id).then(resolve, reject)));
    });
    await services.session.getState().load();
    const doc = await bridge.api.createDocument({ title: "Their plan", shared: true });
    Object.assign(bridge.docs.get(doc.id)!, { arriving: true });
    await services.documents.getState().refresh();
    const nav = screen.getByRole("navigation", { name: "Documents" });
    await until(() => within(nav).queryByText("Their plan") !== null, "listed");
    expect(within(nav).getByText("Arriving…")).toBeTruthy();

    fireEvent.click(within(nav).getByText("Their plan"));
    await until(() => screen.queryByText("Arriving from the team…") !== null, "the arriving preview");
    expect(screen.queryByText("Opening…")).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Document body" })).toBeNull();
    Object.assign(bridge.docs.get(doc.id)!, { arriving: undefined });
    arrive!();
    await until(() => screen.queryByText("Arriving from the team…") === null, "the plan opened");
  });
});
