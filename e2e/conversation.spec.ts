/**
 * Two people chat in a shared plan's conversation (issue #25), each in their own app core and window, through a real
 * relay process: both directions; one of them offline (a cut TCP link to the relay) writes a message that shows as not
 * yet delivered and reaches the other once the link is back; a retried send (an agent's, over MCP, with the same key)
 * makes one entry.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test, type Page } from "@playwright/test";
import { createDocument, openApp, openDocument } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort, startTcpProxy } from "./support/tcp-proxy.js";

let agent: Client | undefined;
test.afterAll(async () => {
  await agent?.close();
  await stopAll();
});

const messages = (page: Page) => page.getByRole("log", { name: "Messages" });

async function openConversation(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Conversation" }).click();
  await expect(messages(page)).toBeVisible();
}

async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.click();
  await box.fill(text);
  await box.press("Enter");
  await expect(box).toHaveValue("");
}

test("two people chat both ways, offline and back, and a retried send makes one entry", async ({ browser }) => {
  const relayDir = tempDir("chat-relay");
  const port = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, port);
  const bobsLink = await startTcpProxy(port);
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir("chat-a"), ["--relay", `ws://127.0.0.1:${port}`, "--relay-token", tokenA]),
    startCore(tempDir("chat-b"), ["--relay", `ws://127.0.0.1:${bobsLink.port}`, "--relay-token", tokenB]),
  ]);
  const alice = await openApp(browser, coreA.ready.url);
  const bob = await openApp(browser, coreB.ready.url);

  await createDocument(alice, "Chat plan");
  await openConversation(alice);
  await openDocument(bob, "Chat plan");
  await openConversation(bob);

  await say(alice, "Hello **Bob**");
  await expect(messages(bob).getByText("Bob", { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(messages(bob).locator("strong", { hasText: "Bob" })).toBeVisible();
  await say(bob, "Hi Alice, @Planner can wait");
  await expect(messages(alice).getByText("Hi Alice, @Planner can wait")).toBeVisible({ timeout: 20_000 });
  await expect(messages(alice).getByText("to Planner")).toBeVisible();
  // Sent while connected: once the relay holds it (Alice has it), Bob's window shows it delivered (issue #25).
  await expect(messages(bob).getByText("Not yet delivered")).toHaveCount(0, { timeout: 20_000 });

  // Bob's link to the relay goes down: his message waits, said so, and goes out when the link is back.
  bobsLink.cut();
  await expect(bob.getByRole("status", { name: "Sync status" })).toContainText(/Offline|Reconnecting|Connecting/i, { timeout: 30_000 });
  await say(bob, "Written while offline");
  const offline = messages(bob).getByRole("listitem").filter({ hasText: "Written while offline" });
  await expect(offline.getByText("Not yet delivered")).toBeVisible();
  bobsLink.restore();
  await expect(messages(alice).getByText("Written while offline")).toBeVisible({ timeout: 30_000 });
  await expect(offline.getByText("Not yet delivered")).toHaveCount(0, { timeout: 30_000 });
  // Every one of Bob's messages shows as delivered, not only the one written offline.
  await expect(messages(bob).getByText("Not yet delivered")).toHaveCount(0);

  // The same send twice (an agent retrying after a lost answer) is one entry, for both people.
  const config = JSON.parse(readFileSync(join(coreA.ready.dataDir, "mcp-config.json"), "utf8")).mcpServers.chopin;
  agent = new Client({ name: "e2e-agent", version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } }));
  const listed = (await agent.callTool({ name: "list_documents", arguments: {} })) as { content: { text: string }[] };
  const id = (JSON.parse(listed.content[0]!.text) as { documents: { id: string; title: string }[] }).documents.find((d) => d.title === "Chat plan")!.id;
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = (await agent.callTool({ name: "post_message", arguments: { id, text: "From the agent, once", to: "room", idempotencyKey: "e2e-retry" } })) as { isError?: boolean };
    expect(result.isError ?? false).toBe(false);
  }
  await expect(messages(bob).getByText("From the agent, once")).toHaveCount(1, { timeout: 20_000 });
  await expect(messages(alice).getByText("From the agent, once")).toHaveCount(1);
});
