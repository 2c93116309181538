/**
 * Test support (imported only by *.test.ts): what every ChopinApi must do, as one suite any implementation runs, in
 * the manner of automerge-repo's adapter suites (issue #24). The real core runs it (main/core/api-contract.test.ts)
 * and so does the window's in-memory test double (renderer/src/test/memory-bridge.contract.test.ts), so the double
 * the window's tests stand on cannot drift from the core: a behaviour one of them changes alone fails here.
 */
import { describe, expect, it } from "vitest";
import type { ChopinApi, ChopinEvents, EventName } from "./api.js";
import { DEFAULT_DOCUMENT_TITLE, MAX_CONVERSATION_PAGE_ENTRIES, MAX_MESSAGE_BYTES, MAX_MESSAGE_REFERENCES } from "./limits.js";
import { agentContractCases } from "./api-contract-agents.js";
import { agentChatContractCases } from "./api-contract-agent-chat.js";
import { agentSidebarContractCases } from "./api-contract-agent-sidebar.js";

export interface ContractSubject {
  api: ChopinApi;
  on<E extends EventName>(event: E, listener: (payload: ChopinEvents[E]) => void): () => void;
  /** A well-formed id no document has. */
  unknownId: string;
  close(): Promise<void>;
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const utf8 = (text: string) => base64(new TextEncoder().encode(text));
const invalid = { code: "invalid-input" };

/** One case of the suite: a fresh subject, closed afterwards whatever happened. */
export type ContractCase = (title: string, body: (subject: ContractSubject) => Promise<void>) => void;

export function chopinApiContract(name: string, start: () => Promise<ContractSubject>): void {
  describe(`the ChopinApi contract: ${name}`, () => {
    const run: ContractCase = (title, body) =>
      it(title, { timeout: 60_000 }, async () => {
        const subject = await start();
        try {
          await body(subject);
        } finally {
          await subject.close();
        }
      });

    run("creates with the defaults, lists, describes, and says documents changed", async ({ api, on }) => {
      const changed: string[][] = [];
      on("documents-changed", ({ ids }) => void changed.push(ids));
      const made = await api.createDocument({});
      expect(made).toMatchObject({ title: DEFAULT_DOCUMENT_TITLE, shared: false, archivedAt: null, createdVia: "app" });
      expect(made.url).toBe(`automerge:${made.id}`);
      expect((await api.listDocuments()).map((d) => d.id)).toEqual([made.id]);
      expect(await api.getDocument(made.id)).toMatchObject({ id: made.id, title: DEFAULT_DOCUMENT_TITLE });
      expect(changed.some((ids) => ids.includes(made.id))).toBe(true);
    });

    run("renames, archives (live and archived lists apart), restores and deletes only what is archived", async ({ api }) => {
      const plan = await api.createDocument({ title: "Plan" });
      expect(await api.renameDocument(plan.id, "Renamed")).toMatchObject({ title: "Renamed" });
      await expect(api.renameDocument(plan.id, "   ")).rejects.toMatchObject(invalid);
      await expect(api.deleteDocument(plan.id)).rejects.toMatchObject({ code: "document-not-archived" });
      expect((await api.archiveDocument(plan.id)).archivedAt).toEqual(expect.any(Number));
      expect(await api.listDocuments()).toEqual([]);
      expect((await api.listDocuments({ archived: true })).map((d) => d.id)).toEqual([plan.id]);
      await expect(api.renameDocument(plan.id, "No")).rejects.toMatchObject({ code: "document-archived" });
      expect(await api.restoreDocument(plan.id)).toMatchObject({ archivedAt: null });
      await api.archiveDocument(plan.id);
      await api.deleteDocument(plan.id);
      await expect(api.getDocument(plan.id)).rejects.toMatchObject({ code: "not-found" });
    });

    run("refuses an unknown document as not found, and arguments that do not fit in a sentence", async ({ api, unknownId }) => {
      await expect(api.getDocument(unknownId)).rejects.toMatchObject({ code: "not-found" });
      await expect(api.createDocument("just text" as never)).rejects.toMatchObject({
        ...invalid,
        message: "A new document's details must be sent as an object (or left out), not text.",
      });
      await expect(api.listDocuments({ archived: "yes" as never })).rejects.toMatchObject(invalid);
      await expect(api.updateSettings([] as never)).rejects.toMatchObject({ ...invalid, message: "Settings must be sent as an object, not a list." });
      await expect(api.getDocument(42 as never)).rejects.toMatchObject(invalid);
    });

    run("without a relay, nothing is shared and sharing is refused with 'no-relay'", async ({ api }) => {
      expect(await api.getSyncStatus()).toMatchObject({ state: "local-only", pendingChanges: 0 });
      await expect(api.createDocument({ shared: true })).rejects.toMatchObject({ code: "no-relay" });
      const plan = await api.createDocument({ title: "Mine" });
      await expect(api.shareDocument(plan.id)).rejects.toMatchObject({ code: "no-relay" });
      expect((await api.getDocument(plan.id)).shared).toBe(false);
    });

    run("keeps settings, a relay token only for its address, and says settings changed", async ({ api, on }) => {
      const heard: unknown[] = [];
      on("settings-changed", (settings) => void heard.push(settings));
      expect(await api.getSettings()).toMatchObject({ relayUrl: null, relayTokenSet: false });
      expect(await api.updateSettings({ relayUrl: "wss://relay.example.test", relayToken: "tok" })).toMatchObject({ relayTokenSet: true });
      expect(await api.updateSettings({ relayUrl: "wss://other.example.test" })).toMatchObject({ relayUrl: "wss://other.example.test", relayTokenSet: false });
      expect(await api.updateSettings({ displayName: "Grace" })).toMatchObject({ displayName: "Grace" });
      expect((await api.getIdentity()).displayName).toBe("Grace");
      expect(heard.length).toBeGreaterThanOrEqual(3);
    });

    run("exports a plan as Markdown and imports a file as a private plan; refuses a file that is not UTF-8", async ({ api }) => {
      const made = await api.importMarkdown({ name: "notes.md", contentBase64: utf8("# Launch\n\nSteps.\n") });
      expect(made).toMatchObject({ title: "Launch", shared: false });
      expect(await api.exportMarkdown(made.id)).toEqual({ fileName: "Launch.md", markdown: "# Launch\n\nSteps.\n" });
      await expect(api.importMarkdown({ name: "latin1.md", contentBase64: base64(Uint8Array.from([0x43, 0xe9])) })).rejects.toMatchObject(invalid);
      await expect(api.importMarkdown({ name: 3, contentBase64: "" } as never)).rejects.toMatchObject(invalid);
    });
    run("a plan's conversation: sends in causal order, a retry makes no second entry, pages, and says it changed", async ({ api, on, unknownId }) => {
      const plan = await api.createDocument({ title: "Chat" });
      const heard: string[] = [];
      on("conversation-changed", ({ documentId }) => void heard.push(documentId));
      expect(await api.readConversation(plan.id)).toMatchObject({ documentId: plan.id, entries: [], hasMore: false, total: 0, unreadCount: 0 });
      const first = await api.postMessage(plan.id, { text: "Hello **room**", to: "room", clientRequestId: "send-1" });
      expect(first).toMatchObject({ created: true, entry: { text: "Hello **room**", to: "room", mine: true, delivery: "local", unread: false, author: { kind: "person" } } });
      const second = await api.postMessage(plan.id, { text: "@Planner draft it", to: "planner", clientRequestId: "send-2" });
      expect(second.entry.seq).toBeGreaterThan(first.entry.seq);
      const retried = await api.postMessage(plan.id, { text: "Hello **room**", to: "room", clientRequestId: "send-1" });
      expect(retried).toMatchObject({ created: false, entry: { id: first.entry.id } });
      const page = await api.readConversation(plan.id);
      expect(page.entries.map((e) => e.text)).toEqual(["Hello **room**", "@Planner draft it"]);
      expect(page.total).toBe(2);
      const last = await api.readConversation(plan.id, { limit: 1 });
      expect(last).toMatchObject({ hasMore: true, entries: [{ id: second.entry.id }] });
      expect(await api.readConversation(plan.id, { before: second.entry.id })).toMatchObject({ hasMore: false, entries: [{ id: first.entry.id }] });
      expect(heard).toContain(plan.id);
      await expect(api.readConversation(unknownId)).rejects.toMatchObject({ code: "not-found" });
      await expect(api.readConversation(plan.id, { before: "f".repeat(32) })).rejects.toMatchObject({ code: "not-found" });
    });

    run("a message that does not fit is refused with a sentence and nothing is kept; an archived plan's conversation takes none", async ({ api }) => {
      const plan = await api.createDocument({ title: "Chat" });
      const send = (input: unknown) => api.postMessage(plan.id, input as never);
      await expect(send({ text: "", to: "room", clientRequestId: "a" })).rejects.toMatchObject(invalid);
      await expect(send({ text: "x".repeat(MAX_MESSAGE_BYTES + 1), to: "room", clientRequestId: "b" })).rejects.toMatchObject(invalid);
      await expect(send({ text: "hi", to: "everyone", clientRequestId: "c" })).rejects.toMatchObject(invalid);
      await expect(send({ text: "hi", to: "room", clientRequestId: "" })).rejects.toMatchObject(invalid);
      await expect(send({ text: "hi", to: "room" })).rejects.toMatchObject(invalid);
      await expect(api.readConversation(plan.id, { limit: MAX_CONVERSATION_PAGE_ENTRIES + 1 })).rejects.toMatchObject(invalid);
      expect((await api.readConversation(plan.id)).total).toBe(0);
      expect(await send({ text: "x".repeat(MAX_MESSAGE_BYTES), to: "room", clientRequestId: "d" })).toMatchObject({ created: true });
      await api.archiveDocument(plan.id);
      await expect(send({ text: "late", to: "room", clientRequestId: "e" })).rejects.toMatchObject({ code: "document-archived" });
      expect((await api.readConversation(plan.id)).total).toBe(1);
    });

    run("keeps the composer's draft per plan and a read mark", async ({ api }) => {
      const plan = await api.createDocument({ title: "Chat" });
      const other = await api.createDocument({ title: "Other" });
      expect(await api.getConversationDraft(plan.id)).toBe("");
      await api.setConversationDraft(plan.id, "half a thought");
      expect(await api.getConversationDraft(plan.id)).toBe("half a thought");
      expect(await api.getConversationDraft(other.id)).toBe("");
      await api.setConversationDraft(plan.id, "");
      expect(await api.getConversationDraft(plan.id)).toBe("");
      const sent = await api.postMessage(plan.id, { text: "mine", to: "room", clientRequestId: "m" });
      await api.markConversationRead(plan.id, sent.entry.id);
      await expect(api.markConversationRead(plan.id, "e".repeat(32))).rejects.toMatchObject({ code: "not-found" });
      await expect(api.markConversationRead(plan.id, "not an id")).rejects.toMatchObject(invalid);
      expect((await api.readConversation(plan.id)).unreadCount).toBe(0);
    });

    run("a private plan's Planner: nobody runs it at first, a signed-out app's message to it is refused in words, a reset of nobody records nothing", async ({ api, on, unknownId }) => {
      const plan = await api.createDocument({ title: "Planned" });
      expect(await api.getPlannerState(plan.id)).toEqual({
        documentId: plan.id,
        owner: null,
        ownedHere: false,
        ownershipGeneration: 0,
        sessionGeneration: 0,
        state: "unowned",
        keeper: "this-device",
        offHere: false,
      });
      const told = new Promise<ChopinEvents["planner-changed"]>((resolve) => {
        const stop = on("planner-changed", (state) => {
          if (state.documentId === plan.id && state.refusal) {
            stop();
            resolve(state);
          }
        });
      });
      await api.postMessage(plan.id, { text: "@Planner outline it", to: "planner", clientRequestId: "ask-1" });
      expect(await told).toMatchObject({ state: "unowned", owner: null, refusal: { code: "unauthorized", message: expect.stringMatching(/Sign in to GitHub/) } });
      expect(await api.getPlannerState(plan.id)).toMatchObject({ state: "unowned", refusal: { code: "unauthorized" } });
      expect(await api.resetPlannerOwnership(plan.id)).toMatchObject({ state: "unowned", ownershipGeneration: 0, sessionGeneration: 0 });
      expect((await api.readConversation(plan.id)).total).toBe(1);
      await expect(api.getPlannerState(unknownId)).rejects.toMatchObject({ code: "not-found" });
      await expect(api.resetPlannerOwnership(42 as never)).rejects.toMatchObject(invalid);
    });

    run("this app's Planner settings: Copilot and on at first, a provider's key never returned and tied to its address, the switch shown in every plan's state", async ({ api, on }) => {
      const plan = await api.createDocument({ title: "Switch" });
      expect(await api.getPlannerSettings()).toEqual({ enabled: true, offByEnvironment: false, provider: null, commandLineProvider: null });
      const provider = { type: "openai" as const, baseUrl: "https://models.example/v1", model: "gpt-x" };
      await expect(api.updatePlannerSettings({ provider })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^API key: /) });
      await expect(api.updatePlannerSettings({ provider: { ...provider, baseUrl: "ftp://x" as string, apiKey: "k" } })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/^Address: /) });
      await expect(api.updatePlannerSettings("on" as never)).rejects.toMatchObject(invalid);
      await expect(api.updatePlannerSettings({ enabled: "no" as never })).rejects.toMatchObject(invalid);
      const heard = new Promise<ChopinEvents["planner-settings-changed"]>((resolve) => {
        const stop = on("planner-settings-changed", (settings) => {
          stop();
          resolve(settings);
        });
      });
      const saved = await api.updatePlannerSettings({ provider: { ...provider, apiKey: "sk-CONTRACT" } });
      expect(saved.provider).toEqual({ ...provider, keySet: true });
      expect(JSON.stringify(saved)).not.toContain("sk-CONTRACT");
      expect(await heard).toEqual(saved);
      // The same address keeps its key; the model can change without it.
      expect((await api.updatePlannerSettings({ provider: { ...provider, model: "gpt-y" } })).provider).toMatchObject({ model: "gpt-y", keySet: true });
      await api.getPlannerState(plan.id);
      const offState = new Promise<ChopinEvents["planner-changed"]>((resolve) => {
        const stop = on("planner-changed", (state) => {
          if (state.documentId === plan.id && state.offHere) {
            stop();
            resolve(state);
          }
        });
      });
      expect(await api.updatePlannerSettings({ enabled: false })).toMatchObject({ enabled: false, provider: { model: "gpt-y" } });
      expect(await offState).toMatchObject({ offHere: true, state: "unowned" });
      expect(await api.getPlannerState(plan.id)).toMatchObject({ offHere: true });
      expect((await api.updatePlannerSettings({ enabled: true, provider: null })).provider).toBeNull();
      expect(await api.getPlannerState(plan.id)).toMatchObject({ offHere: false });
    });

    run("a message references other documents with their title and revision; never the plan itself, a private one from a shared plan, or too many", async ({ api, unknownId }) => {
      const plan = await api.createDocument({ title: "Launch" });
      const spec = await api.createDocument({ title: "Spec" });
      const sent = await api.postMessage(plan.id, { text: "@Planner see the spec", to: "planner", clientRequestId: "r-1", references: [spec.id, spec.id] });
      expect(sent.entry.references).toEqual([{ documentId: spec.id, title: "Spec", revision: spec.revision, changedSince: false }]);
      expect((await api.readConversation(plan.id)).entries[0]!.references).toMatchObject([{ documentId: spec.id, title: "Spec" }]);
      await expect(api.postMessage(plan.id, { text: "self", to: "room", clientRequestId: "r-2", references: [plan.id] })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/itself/) });
      await expect(api.postMessage(plan.id, { text: "ghost", to: "room", clientRequestId: "r-3", references: [unknownId] })).rejects.toMatchObject({ code: "not-found" });
      await expect(api.postMessage(plan.id, { text: "many", to: "room", clientRequestId: "r-4", references: Array(MAX_MESSAGE_REFERENCES + 1).fill(spec.id) })).rejects.toMatchObject(invalid);
      expect((await api.readConversation(plan.id)).total).toBe(1);
    });

    run("a message to the Planner can be withdrawn by its author while it waits; a stop needs a running turn", async ({ api }) => {
      const plan = await api.createDocument({ title: "Ask" });
      const sent = await api.postMessage(plan.id, { text: "@Planner maybe", to: "planner", clientRequestId: "w-1" });
      const room = await api.postMessage(plan.id, { text: "hello all", to: "room", clientRequestId: "w-2" });
      expect(await api.withdrawMessage(plan.id, sent.entry.id)).toMatchObject({ id: sent.entry.id, withdrawn: true });
      expect((await api.readConversation(plan.id)).entries.find((e) => e.id === sent.entry.id)).toMatchObject({ withdrawn: true });
      await expect(api.withdrawMessage(plan.id, room.entry.id)).rejects.toMatchObject({ code: "forbidden" });
      await expect(api.withdrawMessage(plan.id, "e".repeat(32))).rejects.toMatchObject({ code: "not-found" });
      await expect(api.withdrawMessage(plan.id, "not an id")).rejects.toMatchObject(invalid);
      await expect(api.abortPlannerTurn(plan.id)).rejects.toMatchObject({ code: "not-found", message: expect.stringMatching(/No Planner turn is running/) });
    });

    agentContractCases(run);
    agentChatContractCases(run);
    agentSidebarContractCases(run);
  });
}
