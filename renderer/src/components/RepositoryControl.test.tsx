// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { until } from "../test/until.js";
import "../test/jsdom-layout.js";
import { linkedRepos } from "../test/linked-repos.js";
import { stopTestReplicas, testReplica } from "../test/test-replica.js";
import { createMemoryBridge } from "../test/memory-bridge.js";
import { AppServicesContext, createAppServices } from "../state/app-services.js";
import { ChopinError } from "../../../shared/errors.js";
import { App } from "./App.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  stopTestReplicas();
  cleanup();
  while (cleanups.length) cleanups.pop()!();
});


async function renderWithDocument() {
  const { core, replica, close } = linkedRepos();
  cleanups.push(close);
  const bridge = createMemoryBridge(core);
  const services = createAppServices(bridge, testReplica(replica, bridge.api));
  render(
    <AppServicesContext.Provider value={services}>
      <App />
    </AppServicesContext.Provider>,
  );
  fireEvent.click(screen.getByRole("button", { name: "New document" }));
  await until(() => screen.queryByRole("group", { name: "Repository" }) !== null, "the document header");
  return { bridge, services, group: () => screen.getByRole("group", { name: "Repository" }) };
}

describe("Repository control", () => {
  it("a GitHub failure in the picker comes with Try again, which asks GitHub afresh", async () => {
    const { bridge, group } = await renderWithDocument();
    act(() => bridge.emit("auth-state", { ...bridge.auth, state: "signing-in" }));
    act(() => bridge.completeSignIn("alice"));
    await until(() => screen.getByRole("button", { name: /^GitHub account:/ }).textContent?.includes("alice") ?? false, "the account");
    bridge.failNext("listInstallations", new ChopinError("github-unavailable", "GitHub could not be reached."));
    fireEvent.click(within(group()).getByRole("button", { name: "Bind repository" }));
    const dialog = screen.getByRole("dialog", { name: "Bind repository" });
    await until(() => within(dialog).queryByRole("alert") !== null, "the failure");
    expect(within(dialog).getByRole("alert").textContent).toContain("GitHub could not be reached.");
    fireEvent.click(within(dialog).getByRole("button", { name: "Try again" }));
    await until(() => within(dialog).queryByRole("list", { name: "Repositories of octo-org" }) !== null, "the list on the second try");
  });

  it("signed out: the picker says sign-in is needed and leads to Settings; the document stays editable", async () => {
    const { group } = await renderWithDocument();
    fireEvent.click(within(group()).getByRole("button", { name: "Bind repository" }));
    const dialog = screen.getByRole("dialog", { name: "Bind repository" });
    expect(dialog.textContent).toContain("Sign in with GitHub to choose a repository");
    fireEvent.click(within(dialog).getByRole("button", { name: "Open GitHub sign-in" }));
    await until(() => screen.queryByRole("dialog", { name: "Settings" }) !== null, "settings");
    expect(screen.getByRole("textbox", { name: "Document title" })).toBeTruthy();
  });

  it("signed in: lists installations and repositories, binds one, shows owner/name, unbinds", async () => {
    const { bridge, group } = await renderWithDocument();
    act(() => bridge.emit("auth-state", { ...bridge.auth, state: "signing-in" }));
    act(() => bridge.completeSignIn("alice"));
    await until(() => screen.getByRole("button", { name: /^GitHub account:/ }).textContent?.includes("alice") ?? false, "the account");

    fireEvent.click(within(group()).getByRole("button", { name: "Bind repository" }));
    const dialog = screen.getByRole("dialog", { name: "Bind repository" });
    await until(() => within(dialog).queryByRole("list", { name: "Repositories of octo-org" }) !== null, "the first installation's repositories");
    fireEvent.click(within(dialog).getByRole("button", { name: "alice" }));
    await until(() => within(dialog).queryByRole("button", { name: "Bind alice/notes" }) !== null, "alice's repositories");
    fireEvent.click(within(dialog).getByRole("button", { name: "Bind alice/notes" }));
    await until(() => screen.queryByRole("dialog", { name: "Bind repository" }) === null, "the dialog to close");
    await until(() => group().textContent?.includes("alice/notes") ?? false, "the bound repository in the header");
    const id = [...bridge.docs.keys()][0];
    expect(bridge.calls.find((c) => c.method === "bindRepository")?.args).toEqual([id, { installationId: 73, repositoryNodeId: "R_notes" }]);

    fireEvent.click(within(group()).getByRole("button", { name: "Unbind repository" }));
    await until(() => within(group()).queryByRole("button", { name: "Bind repository" }) !== null, "unbound");
    expect(bridge.docs.get(id)!.repository).toBeNull();
  });

  it("refreshes a bound document once when shown signed in: a renamed repository shows its new owner/name", async () => {
    const { bridge, group } = await renderWithDocument();
    const id = [...bridge.docs.keys()][0];
    // Bound before GitHub renamed alice/old-notes to alice/notes (same node id).
    bridge.docs.get(id)!.repository = { owner: "alice", name: "old-notes", nodeId: "R_notes", defaultBranch: "main" };
    act(() => bridge.emit("documents-changed", { ids: [id] }));
    await until(() => group().textContent?.includes("alice/old-notes") ?? false, "the stored binding");
    expect(bridge.calls.some((c) => c.method === "refreshRepositoryBinding")).toBe(false);

    act(() => bridge.completeSignIn("alice"));
    await until(() => group().textContent?.includes("alice/notes") ?? false, "the renamed repository");
    expect(bridge.docs.get(id)!.repository).toMatchObject({ owner: "alice", name: "notes", nodeId: "R_notes" });
    expect(bridge.calls.filter((c) => c.method === "refreshRepositoryBinding").map((c) => c.args)).toEqual([[id]]);
  });

  it("a failed refresh changes nothing and says so beside the name, in words everyone reaches", async () => {
    const { bridge, group } = await renderWithDocument();
    const id = [...bridge.docs.keys()][0];
    bridge.docs.get(id)!.repository = { owner: "alice", name: "old-notes", nodeId: "R_notes", defaultBranch: "main" };
    act(() => bridge.emit("documents-changed", { ids: [id] }));
    await until(() => group().textContent?.includes("alice/old-notes") ?? false, "the stored binding");
    const { ChopinError } = await import("../../../shared/errors.js");
    bridge.failNext("refreshRepositoryBinding", new ChopinError("not-found", "The bound repository no longer exists under its recorded identity."));
    act(() => bridge.completeSignIn("alice"));
    const name = () => within(group()).getByText("alice/old-notes", { exact: false });
    await until(() => name().getAttribute("title")?.includes("no longer exists") ?? false, "the tooltip");
    expect(name().getAttribute("title")).toContain("Default branch: main");
    const note = within(group()).getByRole("note");
    expect(note.textContent).toContain("not checked with GitHub");
    expect(note.textContent).toContain("no longer exists under its recorded identity");
    expect(bridge.docs.get(id)!.repository?.name).toBe("old-notes");
  });

  it("a failed bind is shown in the picker and changes nothing", async () => {
    const { bridge, group } = await renderWithDocument();
    act(() => bridge.completeSignIn("alice"));
    fireEvent.click(within(group()).getByRole("button", { name: "Bind repository" }));
    const dialog = screen.getByRole("dialog", { name: "Bind repository" });
    await until(() => within(dialog).queryByRole("button", { name: "Bind octo-org/planets" }) !== null, "repositories");
    const { ChopinError } = await import("../../../shared/errors.js");
    bridge.failNext("bindRepository", new ChopinError("github-unavailable", "GitHub could not be reached."));
    fireEvent.click(within(dialog).getByRole("button", { name: "Bind octo-org/planets" }));
    await until(() => within(dialog).queryByRole("alert")?.textContent === "GitHub could not be reached.", "the error");
    expect(bridge.docs.get([...bridge.docs.keys()][0])!.repository).toBeNull();
  });
});
