// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Repo } from "@automerge/automerge-repo";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge, type MemoryBridge } from "../test/memory-bridge.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { AccountIndicator } from "./AccountIndicator.js";
import { GitHubAccountSection } from "./GitHubAccountSection.js";

const stops: (() => void)[] = [];
afterEach(() => {
  stopTestReplicas();
  cleanup();
  while (stops.length) stops.pop()!();
});

function renderSection(setup: (bridge: MemoryBridge) => void = () => {}) {
  const bridge = createMemoryBridge();
  setup(bridge);
  const services = createAppServices(bridge, testReplica(new Repo({}), bridge.api));
  stops.push(services.github.start());
  render(
    <AppServicesContext.Provider value={services}>
      <GitHubAccountSection />
      <AccountIndicator />
    </AppServicesContext.Provider>,
  );
  return { bridge, services, section: () => screen.getByRole("region", { name: "GitHub account" }) };
}

describe("GitHub account section", () => {
  it("says honestly when sign-in is not set up, and offers no button", async () => {
    const { section } = renderSection((b) => (b.auth = { ...b.auth, state: "not-configured" }));
    await waitFor(() => expect(section().textContent).toContain("not set up"));
    expect(section().textContent).toContain("--github-client-id");
    expect(within(section()).queryByRole("button", { name: "Sign in with GitHub" })).toBeNull();
    expect(screen.getByRole("button", { name: /^GitHub account:/ }).textContent).toBe("GitHub not set up");
  });

  it("signs in: code and address shown at once, waiting, then who is signed in; sign out returns to signed out", async () => {
    const { bridge, section } = renderSection();
    const signIn = await within(section()).findByRole("button", { name: "Sign in with GitHub" });
    expect(screen.getByRole("button", { name: /^GitHub account:/ }).textContent).toBe("Not signed in to GitHub");
    fireEvent.click(signIn);
    await waitFor(() => expect(within(section()).getByTestId("device-code").textContent).toBe("WDJB-MJHT"));
    expect(bridge.calls.find((c) => c.method === "startSignIn")?.args).toEqual([{ staySignedIn: false }]);
    const link = within(section()).getByRole("link", { name: "https://github.com/login/device" }) as HTMLAnchorElement;
    expect(link.href).toBe("https://github.com/login/device");
    expect(link.target).toBe("_blank");
    expect(link.rel).toBe("noreferrer");
    expect(within(section()).getByText("Waiting for GitHub…").getAttribute("role")).toBe("status");
    expect(within(section()).getByRole("button", { name: "Copy code" })).toBeTruthy();

    act(() => bridge.completeSignIn("alice", "Alice Example"));
    await waitFor(() => expect(section().textContent).toContain("Signed in as @alice"));
    expect(section().textContent).toContain("Alice Example");
    expect(section().textContent).toContain("Stay signed in: off");
    expect(section().textContent).toContain("Credential revision 1");
    expect(screen.getByRole("button", { name: /^GitHub account:/ }).textContent).toContain("alice");

    fireEvent.click(within(section()).getByRole("button", { name: "Sign out" }));
    await within(section()).findByRole("button", { name: "Sign in with GitHub" });
    expect(bridge.calls.some((c) => c.method === "signOut")).toBe(true);
  });

  it("cancelling the code goes back to signed out", async () => {
    const { bridge, section } = renderSection();
    fireEvent.click(await within(section()).findByRole("button", { name: "Sign in with GitHub" }));
    fireEvent.click(await within(section()).findByRole("button", { name: "Cancel sign-in" }));
    await within(section()).findByRole("button", { name: "Sign in with GitHub" });
    expect(bridge.calls.some((c) => c.method === "cancelSignIn")).toBe(true);
  });

  it("staying signed in without OS encryption needs the acknowledged warning first", async () => {
    const { bridge, section } = renderSection();
    const signIn = (await within(section()).findByRole("button", { name: "Sign in with GitHub" })) as HTMLButtonElement;
    fireEvent.click(within(section()).getByRole("checkbox", { name: "Stay signed in on this device" }));
    const note = within(section()).getByRole("note");
    expect(note.textContent).toContain("unencrypted");
    expect(signIn.disabled).toBe(true);
    fireEvent.click(within(section()).getByRole("checkbox", { name: /I understand/ }));
    expect(signIn.disabled).toBe(false);
    fireEvent.click(signIn);
    await within(section()).findByTestId("device-code");
    expect(bridge.calls.find((c) => c.method === "startSignIn")?.args).toEqual([{ staySignedIn: true, plaintextConsent: true }]);
  });

  it("with OS encryption, staying signed in asks for no consent and sends none", async () => {
    const { bridge, section } = renderSection((b) => (b.auth = { ...b.auth, secureStorage: true }));
    const signIn = await within(section()).findByRole("button", { name: "Sign in with GitHub" });
    fireEvent.click(within(section()).getByRole("checkbox", { name: "Stay signed in on this device" }));
    expect(within(section()).queryByRole("note")).toBeNull();
    expect(section().textContent).toContain("keychain");
    fireEvent.click(signIn);
    await within(section()).findByTestId("device-code");
    expect(bridge.calls.find((c) => c.method === "startSignIn")?.args).toEqual([{ staySignedIn: true }]);
    act(() => bridge.completeSignIn("alice"));
    await waitFor(() => expect(section().textContent).toContain("Stay signed in: on"));
  });

  it("shows why a sign-in failed", async () => {
    const { bridge, section } = renderSection();
    await within(section()).findByRole("button", { name: "Sign in with GitHub" });
    act(() => bridge.emit("auth-state", { ...bridge.auth, lastError: { code: "unauthorized", message: "The sign-in was declined on GitHub." } }));
    await waitFor(() => expect(within(section()).getByRole("alert").textContent).toBe("The sign-in was declined on GitHub."));
  });

  it("a sign-in from CHOPIN_GITHUB_TOKEN says it is held in memory only, not 'stay signed in'", async () => {
    const { section } = renderSection((b) => (b.auth = { ...b.auth, state: "signed-in", login: "ci-bot", credentialRevision: 1, suppliedToken: true }));
    await waitFor(() => expect(section().textContent).toContain("Signed in as @ci-bot"));
    expect(section().textContent).toContain("CHOPIN_GITHUB_TOKEN");
    expect(section().textContent).toContain("memory only");
    expect(section().textContent).not.toContain("Stay signed in");
    expect(within(section()).getByRole("button", { name: "Sign out" })).toBeTruthy();
  });

  it("a refused CHOPIN_GITHUB_TOKEN without a client id shows its reason under 'not set up'", async () => {
    const message = "GitHub at https://api.github.com did not accept CHOPIN_GITHUB_TOKEN (401): it may be mistyped, expired or revoked. Chopin is signed out of GitHub.";
    const { section } = renderSection((b) => (b.auth = { ...b.auth, state: "not-configured", lastError: { code: "unauthorized", message } }));
    await waitFor(() => expect(within(section()).getByRole("alert").textContent).toBe(message));
    expect(section().textContent).toContain("not set up");
  });
});
