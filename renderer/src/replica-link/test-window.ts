/**
 * Test support: one window as the app builds it, minus React: a replica client over an in-process replica host on
 * the window's Repo, one document open in a plan editor with presence. `peers` is live.
 */
import type { Repo } from "@automerge/automerge-repo";
import type { EditorView } from "@codemirror/view";
import { ChopinError } from "../../../shared/errors.js";
import { createPlanEditor } from "../editor/plan-editor.js";
import type { Peer, PresenceUser } from "../editor/presence-types.js";
import { presenceView } from "../editor/presence-view.js";
import { startInProcessReplica } from "./in-process-replica.js";
import type { DocumentLink, ReplicaApi, ReplicaClient } from "./replica-client.js";
import { waitFor } from "../../../shared/wait-for.js";

export interface TestWindow {
  view: EditorView;
  peers: Peer[];
  link: DocumentLink;
  client: ReplicaClient;
  close(): void;
}

/** A core that confirms every save and knows no other document (what presence and typing need of it). */
export const confirmingApi: ReplicaApi = {
  waitSaved: async (documentId) => ({ documentId, savedAt: Date.now() }),
  getDocument: async () => {
    throw new ChopinError("not-found", "No such document.");
  },
  readSavedDocument: async () => null,
};

export async function openTestWindow(repo: Repo, url: string, user: PresenceUser): Promise<TestWindow> {
  const replica = startInProcessReplica({ repo, api: confirmingApi });
  replica.client.setUser(user, user.name);
  const link = replica.client.open(url, null, null);
  let base: string | null = null;
  const presence = presenceView((version, anchor, head) => link.select(version, anchor, head));
  const opened: Partial<TestWindow> = { peers: [], link, client: replica.client };
  link.on((event) => {
    if (event.t === "base") base = event.text;
    if (event.t === "presence") {
      opened.peers = event.peers;
      presence.show(event.version, event.carets);
    }
  });
  await waitFor(() => base !== null, "the document's text in the window", 10_000);
  const parent = document.createElement("div");
  document.body.append(parent);
  const view = createPlanEditor({ parent, text: base!, mirror: link.mirror, extensions: [presence.extension] });
  opened.view = view;
  opened.close = () => {
    link.close();
    view.destroy();
    parent.remove();
    replica.stop();
  };
  return opened as TestWindow;
}
