// @vitest-environment jsdom
/** After joining a team, the sidebar says how many documents stay private and how to share one, until dismissed. */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";
import { privateHintWords } from "./PrivateDocumentsHint.js";

afterEach(cleanupApps);

describe("private documents hint", () => {
  it("counts the private documents with a relay configured, and goes for good once dismissed", async () => {
    const relay = "wss://relay-one.example.test";
    const { bridge } = renderApp((b) => void (b.settings.relayUrl = relay));
    await bridge.api.createDocument({ title: "Diary", shared: false });
    await bridge.api.createDocument({ title: "Notes", shared: false });
    await bridge.api.createDocument({ title: "Team plan", shared: true });
    await until(() => screen.queryByRole("note", { name: "Private documents" }) !== null, "the hint");
    expect(screen.getByRole("note", { name: "Private documents" }).textContent).toContain(privateHintWords(2));
    fireEvent.click(screen.getByRole("button", { name: "Got it" }));
    await until(() => screen.queryByRole("note", { name: "Private documents" }) === null, "the hint gone");
    cleanupApps();
    // A new window of the same page (storage kept): still dismissed for this relay.
    const again = renderApp((b) => void (b.settings.relayUrl = relay));
    await again.bridge.api.createDocument({ title: "Diary", shared: false });
    await until(() => screen.queryByText("Diary") !== null, "listed");
    expect(screen.queryByRole("note", { name: "Private documents" })).toBeNull();
  });

  it("is not shown without a relay (everything is private then, by design)", async () => {
    const { bridge } = renderApp();
    await bridge.api.createDocument({ title: "Diary" });
    await until(() => screen.queryByText("Diary") !== null, "listed");
    expect(screen.queryByRole("note", { name: "Private documents" })).toBeNull();
  });

  it("words one document in the singular", () => {
    expect(privateHintWords(1)).toMatch(/^1 document is private to this device: your team cannot see it\./);
  });
});
