// @vitest-environment jsdom
/**
 * A committed title stays on screen until the core has answered, and then shows what the core holds: the old title
 * never flashes back while the rename is on its way, nor after a refusal whose change the core kept in memory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import "../test/jsdom-layout.js";
import { until } from "../test/until.js";
import { cleanupApps, renderAppWithPlanOpen } from "../test/render-app.js";
import { ChopinError } from "../../../shared/errors.js";
import type { MemoryBridge } from "../test/memory-bridge.js";

afterEach(cleanupApps);

const titleBox = () => screen.getByRole("textbox", { name: "Document title" }) as HTMLInputElement;

const openPlan = (prepare?: (bridge: MemoryBridge) => void) => renderAppWithPlanOpen("Plan", prepare);

function retitle(title: string) {
  fireEvent.focus(titleBox());
  fireEvent.change(titleBox(), { target: { value: title } });
  fireEvent.blur(titleBox());
}

/** A gate the test opens: the rename's answer waits for it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("committing a title", () => {
  it("shows the new title while the rename is on its way, not the old one", async () => {
    const answer = gate();
    let asked = false;
    await openPlan((bridge) => {
      const rename = bridge.api.renameDocument.bind(bridge.api);
      bridge.api.renameDocument = async (id, title) => {
        asked = true;
        await answer.opened;
        return rename(id, title);
      };
    });
    retitle("  Plan B ");
    await until(() => asked, "the rename sent");
    expect(titleBox().value).toBe("Plan B");
    answer.open();
    await until(() => within(screen.getByRole("navigation", { name: "Documents" })).queryByText("Plan B") !== null, "the list renamed");
    expect(titleBox().value).toBe("Plan B");
  });

  it("keeps the new title after a refusal whose change the core kept in memory (a full disk)", async () => {
    await openPlan((bridge) => {
      const rename = bridge.api.renameDocument.bind(bridge.api);
      bridge.api.renameDocument = async (id, title) => {
        await rename(id, title);
        throw new ChopinError("storage-failure", "The disk is full; Chopin will keep trying to save it.");
      };
    });
    retitle("Plan B");
    await until(() => screen.queryByText(/The disk is full/) !== null, "the refusal said");
    expect(titleBox().value).toBe("Plan B");
  });

  it("goes back to the core's title after a refusal that changed nothing", async () => {
    let refused = false;
    await openPlan((bridge) => {
      bridge.api.renameDocument = async () => {
        refused = true;
        throw new ChopinError("document-archived", "This document is archived; restore it to edit.");
      };
    });
    retitle("Plan B");
    await until(() => refused && titleBox().value === "Plan", "the title back");
    expect(screen.getByText(/restore it to edit/)).toBeTruthy();
  });
});
