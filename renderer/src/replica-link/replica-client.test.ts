import { afterEach, describe, expect, it } from "vitest";
import { ChopinError } from "../../../shared/errors.js";
import type { HostLink, HostToPage, PageToHost } from "../replica/host-protocol.js";
import { ReplicaClient, type ReplicaApi, type SessionEvent } from "./replica-client.js";

/** A host that records what the page sent and lets the test answer as the host would. */
function fakeHost() {
  const sent: PageToHost[] = [];
  let deliver: (message: HostToPage) => void = () => undefined;
  const link: HostLink<PageToHost, HostToPage> = {
    post: (message) => void sent.push(message),
    listen: (listener) => {
      deliver = listener;
      return () => (deliver = () => undefined);
    },
  };
  return { sent, link, send: (message: HostToPage) => deliver(message) };
}
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const api: ReplicaApi = {
  getDocument: async () => {
    throw new ChopinError("not-found", "No such document.");
  },
  readSavedDocument: async () => "c2F2ZWQ=",
  waitSaved: async (documentId) => ({ documentId, savedAt: 1 }),
};
const clients: ReplicaClient[] = [];
afterEach(() => clients.splice(0).forEach((c) => c.stop()));
function client(options: Partial<ConstructorParameters<typeof ReplicaClient>[0]> = {}) {
  const host = fakeHost();
  const notices: string[] = [];
  const c = new ReplicaClient({ link: host.link, api, storage: null, notify: (m) => notices.push(m), ...options });
  clients.push(c);
  return { c, host, notices };
}

describe("ReplicaClient", () => {
  it("sends a session's messages only after its open, which waits for the stored bytes", async () => {
    const { c, host } = client();
    c.setUser({ name: "Ada", color: "#111" }, "Ada");
    let give!: (bytes: string | null) => void;
    const link = c.open("automerge:x", "base", new Promise((resolve) => (give = resolve)));
    link.mirror.post({ type: "push", version: 0, updates: [] });
    link.select(0, 1, 2);
    await tick();
    expect(host.sent.map((m) => m.t)).toEqual(["user"]);
    give("Ynl0ZXM=");
    await tick();
    expect(host.sent.map((m) => m.t)).toEqual(["user", "open", "mirror", "selection"]);
    expect(host.sent[1]).toMatchObject({ t: "open", url: "automerge:x", saved: "Ynl0ZXM=", baseText: "base", user: { name: "Ada" }, displayName: "Ada" });
  });

  it("never opens a session closed before its bytes came, and drops what a closed session is told", async () => {
    const { c, host } = client();
    let give!: (bytes: string | null) => void;
    const link = c.open("automerge:x", null, new Promise((resolve) => (give = resolve)));
    const heard: SessionEvent[] = [];
    link.on((event) => heard.push(event));
    link.close();
    give(null);
    await tick();
    expect(host.sent).toEqual([]);
    host.send({ t: "ready", session: 1, heads: [] });
    expect(heard).toEqual([]);
  });

  it("hands an editor the mirror messages that came before it listened, in order, a microtask later", async () => {
    const { c, host } = client();
    const link = c.open("automerge:x", "a", null);
    await tick();
    host.send({ t: "mirror", session: 1, m: { type: "updates", version: 0, updates: [] } });
    host.send({ t: "mirror", session: 1, m: { type: "pushed" } });
    const got: string[] = [];
    link.mirror.listen((m) => got.push(m.type));
    expect(got).toEqual([]);
    await tick();
    expect(got).toEqual(["updates", "pushed"]);
    host.send({ t: "mirror", session: 1, m: { type: "pushed" } });
    expect(got).toEqual(["updates", "pushed", "pushed"]);
  });

  it("tells a late listener the latest of each event, and turns the host's 'base' into an event", async () => {
    const { c, host } = client();
    const link = c.open("automerge:x", null, null);
    await tick();
    host.send({ t: "mirror", session: 1, m: { type: "base", text: "from the document" } });
    host.send({ t: "heads", session: 1, heads: ["a"] });
    host.send({ t: "heads", session: 1, heads: ["b"] });
    const heard: SessionEvent[] = [];
    link.on((event) => heard.push(event));
    await tick();
    expect(heard).toEqual([
      { t: "base", session: 1, text: "from the document" },
      { t: "heads", session: 1, heads: ["b"] },
    ]);
  });

  it("answers the host's API calls, keeping an error's code and sentence", async () => {
    const { c, host } = client();
    void c;
    host.send({ t: "api", id: 7, method: "readSavedDocument", args: ["doc"] });
    host.send({ t: "api", id: 8, method: "getDocument", args: ["doc"] });
    await tick();
    expect(host.sent).toEqual([
      { t: "api-result", id: 7, ok: true, value: "c2F2ZWQ=" },
      { t: "api-result", id: 8, ok: false, code: "not-found", message: "No such document." },
    ]);
  });

  it("writes the host's outbox entries to the page's storage and says so in words when the browser refuses", () => {
    const stored = new Map<string, string>();
    let full = false;
    const storage = {
      setItem: (key: string, value: string) => {
        if (full) throw new DOMException("quota", "QuotaExceededError");
        stored.set(key, value);
      },
      removeItem: (key: string) => void stored.delete(key),
    };
    const { host, notices } = client({ storage });
    host.send({ t: "storage-set", key: "chopin.outbox.v1:a", value: "1" });
    expect(stored.get("chopin.outbox.v1:a")).toBe("1");
    host.send({ t: "storage-remove", key: "chopin.outbox.v1:a" });
    expect(stored.size).toBe(0);
    full = true;
    host.send({ t: "storage-set", key: "chopin.outbox.v1:b", value: "2" });
    expect(notices).toEqual([expect.stringMatching(/refused to keep your unsaved edits/)]);
  });

  it("passes on other windows' outbox changes only", () => {
    const { c, host } = client();
    c.storageChanged("chopin.outbox.v1:x", "v");
    c.storageChanged("something-else", "v");
    c.storageChanged(null, null);
    expect(host.sent).toEqual([{ t: "storage", entries: [["chopin.outbox.v1:x", "v"]] }]);
  });
});
