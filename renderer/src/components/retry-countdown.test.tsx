// @vitest-environment jsdom
/**
 * "Offline · retrying in Ns" counts down while the core waits to retry (it froze at the first figure: the clock hook
 * was never called), and the ticking figure stays out of the live region's words, so a screen reader is not read the
 * status every second.
 */
import { afterEach, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderApp } from "../test/render-app.js";

afterEach(cleanupApps);

describe("the retry countdown", () => {
  it("counts down each second, beside the live status words", async () => {
    const { services } = renderApp();
    const status = () => screen.getByRole("status", { name: "Sync status" });
    // The in-memory core reports "local only" once at start; the offline status is set after it, so it stays.
    await until(() => status().textContent === "Local only", "the core's own first status");
    services.connection.setState({ sync: { state: "offline", pendingChanges: 2, nextRetryAt: Date.now() + 3_500 } as never });
    await until(() => /retrying in 4s/.test(status().textContent ?? ""), "the first figure");
    await until(() => /retrying in 3s/.test(status().textContent ?? ""), "one second later");
    await until(() => /retrying in 2s/.test(status().textContent ?? ""), "two seconds later");
    const live = [...status().childNodes].filter((node) => !(node instanceof HTMLElement && node.getAttribute("aria-hidden") === "true"));
    expect(live.map((node) => node.textContent).join("")).toBe("Offline — 2 changes waiting");
  });
});
