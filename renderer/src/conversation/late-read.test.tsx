// @vitest-environment jsdom
/**
 * A read of the conversation that answers after a newer one is not shown over it (found with issue #25's delivery
 * fix: the panel applied reads in the order they answered, so a slow early read could take back a message a later
 * read had shown).
 */
import { afterEach, describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithConversationOpen } from "../test/render-app.js";
import type { ConversationPage } from "../../../shared/api.js";

afterEach(cleanupApps);

describe("the conversation panel's reads", () => {
  it("never shows an older read that answers after a newer one", async () => {
    const { app, plan } = await renderAppWithConversationOpen("Launch");
    await until(() => screen.queryByText(/No messages yet/) !== null, "empty");

    // The next read is held back with what the conversation was then (empty); later reads go through.
    const read = app.bridge.api.readConversation.bind(app.bridge.api);
    let release: () => void = () => undefined;
    let held = false;
    app.bridge.api.readConversation = async (id, query) => {
      if (held) return read(id, query);
      held = true;
      const stale = await read(id, query);
      await new Promise<void>((resolve) => (release = resolve));
      return stale as ConversationPage;
    };
    app.bridge.emit("conversation-changed", { documentId: plan.id });
    await until(() => held, "the early read asked");
    app.bridge.receiveMessage(plan.id, { author: { kind: "person", name: "Alice", device: "device-alice" }, text: "Hello from Alice" });
    const log = screen.getByRole("log", { name: "Messages" });
    await until(() => within(log).queryByText("Hello from Alice") !== null, "the later read shown");
    release();
    // The early read's empty page arrives last: the message stays.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await until(() => within(log).queryByText("Hello from Alice") !== null, "still shown");
    expect(within(log).queryByText(/No messages yet/)).toBeNull();
  });
});
