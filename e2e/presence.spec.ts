/**
 * Presence tells the truth when a teammate leaves: one real relay, two app cores, two Chromium pages. A person who
 * opens another document, or deletes the shared one on their device, leaves the other page's "Also here" list when
 * they leave (a goodbye), not when their last heartbeat expires (PRESENCE_PEER_TTL_MS).
 */
import { expect, test, type Page } from "@playwright/test";
import { PRESENCE_PEER_TTL_MS } from "../shared/limits.js";
import { createDocument, openApp, openDocument, setDisplayName, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";

test.describe.configure({ mode: "serial" });

let pageA: Page;
let pageB: Page;
const SHARED = "Presence plan";
/** Well inside the heartbeat TTL: a peer gone by then left by goodbye, not by expiry. */
const LEAVE_SEEN_WITHIN_MS = PRESENCE_PEER_TTL_MS / 2;

test.beforeAll(async ({ browser }) => {
  const relayDir = tempDir("presence-relay");
  const relayPort = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  await startRelayProcess(relayDir, relayPort);
  const relayUrl = `ws://127.0.0.1:${relayPort}`;
  const [coreA, coreB] = await Promise.all([
    startCore(tempDir("presence-a"), ["--relay", relayUrl, "--relay-token", tokenA]),
    startCore(tempDir("presence-b"), ["--relay", relayUrl, "--relay-token", tokenB]),
  ]);
  pageA = await openApp(browser, coreA.ready.url);
  pageB = await openApp(browser, coreB.ready.url);
  await setDisplayName(pageA, "Alice");
  await setDisplayName(pageB, "Bob");
});

test.afterAll(async () => {
  await stopAll();
});

const bobHere = () => pageA.getByRole("list", { name: /Also here: .*Bob/ });

async function bobJoins(): Promise<void> {
  await openDocument(pageB, SHARED);
  await typeAtEnd(pageB, " Bob.");
  await expect(bobHere()).toBeVisible({ timeout: 30_000 });
}

test("a teammate who opens another document leaves the list at once", async () => {
  await createDocument(pageA, SHARED);
  await typeAtEnd(pageA, "Alice writes.");
  await bobJoins();
  await createDocument(pageB, "Bob's other plan");
  await expect(bobHere()).toHaveCount(0, { timeout: LEAVE_SEEN_WITHIN_MS });
});

test("a teammate who deletes the shared document on their device leaves the list at once", async () => {
  await bobJoins();
  const nav = pageB.getByRole("navigation");
  await nav.getByRole("button", { name: `More actions for ${SHARED}` }).click();
  await pageB.getByRole("menuitem", { name: "Archive" }).click();
  await nav.getByText("Show archived").click();
  await nav.getByRole("button", { name: `More actions for ${SHARED}` }).click();
  await pageB.getByRole("menuitem", { name: "Delete…" }).click();
  await pageB.getByRole("dialog", { name: "Delete document?" }).getByRole("button", { name: "Delete" }).click();
  await expect(nav.getByText(SHARED, { exact: true })).toHaveCount(0);
  await expect(bobHere()).toHaveCount(0, { timeout: LEAVE_SEEN_WITHIN_MS });
});
