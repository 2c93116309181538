/**
 * A Planner turn end to end (issue #26): Alice and Bob each have a host-mode core and a window, a relay process between
 * them, and the Planner's model is our fake OpenAI server (the cores' configured provider). Alice asks the Planner in
 * the shared plan's conversation; her app takes the Planner, her window and Bob's stream the turn (the tool calls),
 * the model reads the plan and adds a block through edit_plan, and the edit appears in Bob's editor while the
 * answer appears in both conversations.
 */
import { expect, test, type Page } from "@playwright/test";
import { messageText } from "../test-support/fake-openai/protocol.js";
import type { RecordedRequest } from "../test-support/fake-openai/types.js";
import { createDocument, editor, openApp, openDocument, typeAtEnd } from "./support/app-page.js";
import { startPlannerModel, type PlannerModel } from "./support/planner-model.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";

let model: PlannerModel | undefined;
test.afterAll(async () => {
  await stopAll();
  await model?.fake.close();
});

const messages = (page: Page) => page.getByRole("log", { name: "Messages" });
const lastToolResult = (request: RecordedRequest) => JSON.parse(messageText(request.body.messages.filter((m) => m.role === "tool").at(-1))) as Record<string, any>;

test("a turn streams in the asker's window, and its plan edit and answer reach a teammate", async ({ browser }) => {
  model = await startPlannerModel();
  const relayDir = tempDir("turn-relay");
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir("turn-a"), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenA, ...model.args], model.env),
    startCore(tempDir("turn-b"), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenB, ...model.args], model.env),
  ]);
  const alice = await openApp(browser, coreA.ready.url);
  const bob = await openApp(browser, coreB.ready.url);

  await createDocument(alice, "Launch");
  await typeAtEnd(alice, "We ship in May.");
  await openDocument(bob, "Launch");
  await expect(editor(bob)).toContainText("We ship in May.", { timeout: 20_000 });
  await alice.getByRole("button", { name: "Conversation" }).click();
  await bob.getByRole("button", { name: "Conversation" }).click();

  // The model reads the plan, adds a Risks section after its last block, then answers slowly enough to be seen.
  let release: () => void = () => undefined;
  const answerMayFinish = new Promise<void>((resolve) => (release = resolve));
  model.fake.script(
    { toolCalls: [{ name: "read_plan", arguments: {} }] },
    (request) => {
      const read = lastToolResult(request);
      const last = read.blocks.at(-1);
      return { toolCalls: [{ name: "edit_plan", arguments: { revision: read.revision, operations: [{ op: "insert", after: { index: last.index, digest: last.digest }, markdown: "## Risks\n\n- Late hardware" }] } }] };
    },
    async () => {
      await answerMayFinish;
      return { text: "I added a **Risks** section.", chunks: 4, delayMs: 50 };
    },
  );
  const box = alice.getByRole("textbox", { name: "Message" });
  await box.fill("@Planner add a risks section");
  await box.press("Enter");

  await expect(alice.getByRole("status", { name: "Planner" })).toContainText("Planner runs on this app", { timeout: 20_000 });
  const tools = messages(alice).getByRole("list", { name: "The Planner's tool calls" });
  await expect(tools).toContainText("read_plan: done", { timeout: 30_000 });
  await expect(tools).toContainText("edit_plan: done", { timeout: 30_000 });
  await expect(messages(bob).getByText("Working on it…")).toBeVisible({ timeout: 20_000 });
  // The turn streams to Bob's window too, passed on by Alice's app through the relay.
  await expect(messages(bob).getByRole("list", { name: "The Planner's tool calls" })).toContainText("edit_plan: done", { timeout: 30_000 });
  await expect(editor(bob)).toContainText("Late hardware", { timeout: 20_000 });
  release();

  for (const page of [alice, bob]) {
    await expect(messages(page).locator("strong", { hasText: "Risks" })).toBeVisible({ timeout: 30_000 });
  }
  await expect(messages(bob).getByText("Working on it…")).toHaveCount(0);
  await expect(editor(alice)).toContainText("Late hardware");
});
