// @vitest-environment jsdom
/** The copy button keeps its name and says the outcome in a live region (UX audit: "Copied" was only drawn). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { until } from "../test/until.js";
import { CopyButton } from "./CopyButton.js";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function withClipboard(writeText: (text: string) => Promise<void>): void {
  vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
}

describe("CopyButton", () => {
  it("copies the text and says so, its name unchanged", async () => {
    const written: string[] = [];
    withClipboard(async (text) => void written.push(text));
    render(<CopyButton text="ABCD-1234" name="Copy code" what="the code" />);
    const status = screen.getByRole("status");
    expect(status.textContent).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Copy code" }));
    await until(() => status.textContent !== "", "the outcome said");
    expect(status.textContent).toBe("Copied the code to the clipboard.");
    expect(written).toEqual(["ABCD-1234"]);
    expect(screen.getByRole("button", { name: "Copy code" }).textContent).toBe("Copied");
  });

  it("says to copy by hand when the clipboard is refused", async () => {
    withClipboard(() => Promise.reject(new Error("denied")));
    render(<CopyButton text="npx chopin" name="Copy Claude Code command" what="the Claude Code command" />);
    fireEvent.click(screen.getByRole("button", { name: "Copy Claude Code command" }));
    await until(() => screen.getByRole("status").textContent !== "", "the outcome said");
    expect(screen.getByRole("status").textContent).toBe("Could not reach the clipboard: select the Claude Code command and copy it.");
  });
});
