import { afterEach, describe, expect, it } from "vitest";
import { Repo, type DocHandle, type RepoMessage } from "@automerge/automerge-repo";
import { MessageChannelNetworkAdapter } from "@automerge/automerge-repo-network-messagechannel";
import type { PlanDocument } from "../../../shared/schema/plan-document.js";
import { createReplica, openDocument, openDocumentFrom } from "./replica.js";
import { waitFor } from "../../../shared/wait-for.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

/** A core Repo that announces everything to its window (as the app core does) and a replica from createReplica. */
function coreAndReplica() {
  const { port1, port2 } = new MessageChannel();
  const core = new Repo({ network: [new MessageChannelNetworkAdapter(port1)], sharePolicy: async () => true });
  const adapter = new MessageChannelNetworkAdapter(port2);
  const sent: RepoMessage[] = [];
  const send = adapter.send.bind(adapter);
  adapter.send = (message: RepoMessage) => {
    sent.push(message);
    send(message);
  };
  const replica = createReplica(adapter);
  cleanups.push(() => {
    void core.shutdown();
    void replica.shutdown();
    port1.close();
    port2.close();
  });
  return { core, replica, sent };
}

describe("createReplica", () => {
  it("refuses documents the window did not open, so the core's announcements cost the page nothing", async () => {
    const { core, replica, sent } = coreAndReplica();
    const index = core.create({ entries: {} });
    await waitFor(() => sent.some((m) => m.type === "doc-unavailable" && m.documentId === index.documentId), "the refusal", 10_000);
    expect(replica.handles[index.documentId]).toBeUndefined();
  });

  it("still opens a refused document when asked, and syncs it both ways", async () => {
    const { core, replica, sent } = coreAndReplica();
    const source = core.create<PlanDocument>({ text: "# Plan" } as PlanDocument);
    await waitFor(() => sent.some((m) => m.type === "doc-unavailable" && m.documentId === source.documentId), "the refusal", 10_000);

    const handle = await openDocument(replica, source.url, { timeoutMs: 10_000, retryMs: 50 });
    expect(handle.doc().text).toBe("# Plan");
    source.change((d) => void (d.text = "# Plan\nfrom the core"));
    await waitFor(() => handle.doc().text === "# Plan\nfrom the core", "the core's edit in the window", 10_000);
    handle.change((d) => void (d.text += "\nfrom the window"));
    await waitFor(() => source.doc().text === "# Plan\nfrom the core\nfrom the window", "the window's edit in the core", 10_000);
  });

  it("syncs a document it loaded from stored bytes", async () => {
    const { core, replica } = coreAndReplica();
    const source = core.create<PlanDocument>({ text: "stored" } as PlanDocument);
    const bytes = (await core.export(source.documentId))!;
    const handle: DocHandle<PlanDocument> = await openDocumentFrom(replica, source.url, bytes, { timeoutMs: 10_000 });
    expect(handle.doc().text).toBe("stored");
    source.change((d) => void (d.text = "stored, then edited"));
    await waitFor(() => handle.doc().text === "stored, then edited", "the core's edit in the window", 10_000);
    handle.change((d) => void (d.text += " twice"));
    await waitFor(() => source.doc().text === "stored, then edited twice", "the window's edit in the core", 10_000);
  });
});
