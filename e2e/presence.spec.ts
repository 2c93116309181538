/**
 * Presence tells the truth when a teammate leaves: one real relay, two app cores, two Chromium pages. A person who
 * opens another document, closes a tab, or deletes the shared one on their device, leaves the other page's "Also
 * here" list when they leave (a goodbye), not when their last heartbeat expires (PRESENCE_PEER_TTL_MS); so does one
 * the relay cuts off (revoked: the relay says the goodbye), and so does a tab that crashes (its core says it); a
 * person's own other tab is named as them, not as a teammate.
 */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { PRESENCE_PEER_TTL_MS } from "../shared/limits.js";
import { createDocument, openApp, openDocument, setDisplayName, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir } from "./support/processes.js";
import { addRelayUser, revokeRelayUser, startRelayProcess } from "./support/relay.js";
import { freePort } from "./support/tcp-proxy.js";

test.describe.configure({ mode: "serial" });

let pageA: Page;
let pageB: Page;
let urlB: string;
let relayDir: string;
const SHARED = "Presence plan";
/** Well inside the heartbeat TTL: a peer gone by then left by goodbye, not by expiry. */
const LEAVE_SEEN_WITHIN_MS = PRESENCE_PEER_TTL_MS / 2;

test.beforeAll(async ({ browser }) => {
  relayDir = tempDir("presence-relay");
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
  urlB = coreB.ready.url;
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

test("a teammate's second tab shows as one more presence, and leaves the list at once when closed", async ({ browser }: { browser: Browser }) => {
  await bobJoins();
  const tab = await openApp(browser, urlB);
  await openDocument(tab, SHARED);
  await typeAtEnd(tab, " Tab.");
  // Alice sees Bob twice (two windows); each of Bob's tabs names the other as himself, not as a teammate.
  await expect(pageA.getByRole("list", { name: /Also here: Bob, Bob/ })).toBeVisible({ timeout: 30_000 });
  await expect(tab.getByRole("list", { name: /Also here: .*You \(another window\)/ })).toBeVisible({ timeout: 30_000 });
  await tab.close();
  await expect(pageA.getByRole("list", { name: /Also here: Bob, Bob/ })).toHaveCount(0, { timeout: LEAVE_SEEN_WITHIN_MS });
  await expect(bobHere()).toBeVisible();
});

test("a teammate's tab that crashes (no pagehide, no goodbye of its own) leaves the list at once: its core says it", async ({ browser }: { browser: Browser }) => {
  await bobJoins();
  const tab = await openApp(browser, urlB);
  await openDocument(tab, SHARED);
  await typeAtEnd(tab, " Crash.");
  await expect(pageA.getByRole("list", { name: /Also here: Bob, Bob/ })).toBeVisible({ timeout: 30_000 });
  // The renderer process dies at once: nothing on the page runs, so only its core can say it left.
  await tab.goto("chrome://crash").catch(() => undefined);
  await expect(pageA.getByRole("list", { name: /Also here: Bob, Bob/ })).toHaveCount(0, { timeout: LEAVE_SEEN_WITHIN_MS });
  await expect(bobHere()).toBeVisible();
  await tab.close().catch(() => undefined);
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

// Last: Bob cannot come back once revoked.
test("a teammate the relay revokes leaves the list at once (the relay says goodbye for them)", async () => {
  const plan = "Revocation plan";
  await createDocument(pageA, plan);
  await typeAtEnd(pageA, "Alice again.");
  // The test before left Bob's list showing archived documents.
  await pageB.getByRole("checkbox", { name: "Show archived" }).uncheck();
  await openDocument(pageB, plan);
  await typeAtEnd(pageB, " Bob again.");
  await expect(bobHere()).toBeVisible({ timeout: 30_000 });
  await revokeRelayUser(relayDir, "bob");
  // The cut is seen on Bob's side; from then on his windows' last heartbeats would keep him "here" 15-20 s.
  await expect(pageB.getByRole("status", { name: "Sync status" })).toContainText("Your access to this relay was revoked.", { timeout: 30_000 });
  await expect(bobHere()).toHaveCount(0, { timeout: LEAVE_SEEN_WITHIN_MS });
});
