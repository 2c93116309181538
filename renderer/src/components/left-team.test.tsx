// @vitest-environment jsdom
/**
 * A shared plan a teammate deleted stays on this device, private and archived. Its banner tells the steps that put
 * it back on the team's list as they are: restore it, then share it (UX audit: it said only "share it again",
 * which an archived plan does not offer).
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

describe("a plan a teammate deleted from the team's list", () => {
  it("says to restore it, then share it; once restored, to share it, which the header offers", async () => {
    const { services, bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await services.session.getState().load();
    const doc = await bridge.api.createDocument({ title: "Plan", shared: false });
    Object.assign(bridge.docs.get(doc.id)!, { leftTeamAt: Date.now(), archivedAt: Date.now() });
    await services.documents.getState().open(doc.id);
    const banner = () => screen.getAllByRole("status").find((el) => el.textContent?.includes("A teammate deleted this plan"));
    await until(() => banner() !== undefined, "the banner");
    expect(banner()!.textContent).toContain("Your copy stays on this device, private and archived: restore it, then share it again");
    const header = document.querySelector<HTMLElement>(".doc-header")!;
    expect(within(header).queryByRole("button", { name: "Share" })).toBeNull();

    const archived = screen.getAllByRole("status").find((el) => el.textContent?.includes("This document is archived"))!;
    fireEvent.click(within(archived).getByRole("button", { name: "Restore" }));
    await until(() => services.documents.getState().selected?.archivedAt === null, "restored");
    await until(() => banner()?.textContent?.includes("private; share it again to put a copy on the team’s list") === true, "the banner after the restore");
    expect(within(header).getByRole("button", { name: "Share" })).toBeTruthy();
  });

  it("a plan a teammate listed while it is private here says so, and nothing else changes", async () => {
    const { services, bridge } = renderApp((b) => void (b.settings.relayUrl = "wss://relay.example.test"));
    await services.session.getState().load();
    const doc = await bridge.api.createDocument({ title: "Diary", shared: false });
    Object.assign(bridge.docs.get(doc.id)!, { listedByTeammate: true });
    await services.documents.getState().open(doc.id);
    const banner = () => screen.getAllByRole("status").find((el) => el.textContent?.includes("A teammate put this plan on the team’s list"));
    await until(() => banner() !== undefined, "the banner");
    expect(banner()!.textContent).toContain("it is private on this device, so nothing of it was sent");
    const header = document.querySelector<HTMLElement>(".doc-header")!;
    expect(within(header).getByRole("button", { name: "Share" })).toBeTruthy();
  });
});
