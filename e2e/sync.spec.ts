/**
 * The foundation end to end: one real relay, two real app cores in host mode, two Chromium pages. Each test states
 * one promise of the product and waits on conditions only.
 */
import { expect, test, type Page } from "@playwright/test";
import { createDocument, editor, editorText, openApp, openDocument, setDisplayName, typeAtEnd } from "./support/app-page.js";
import { startCore, stopAll, tempDir, type CoreReady, type Started } from "./support/processes.js";
import { addRelayUser, revokeRelayUser, startRelayProcess, type RelayReady } from "./support/relay.js";
import { freePort, startTcpProxy, type TcpProxy } from "./support/tcp-proxy.js";

test.describe.configure({ mode: "serial" });

let relayDir: string;
let relayPort: number;
let relay: Started<RelayReady>;
let proxyB: TcpProxy;
let dirA: string;
let dirB: string;
let argsA: string[];
let coreA: Started<CoreReady>;
let coreB: Started<CoreReady>;
let pageA: Page;
let pageB: Page;
const TITLE = "Launch plan";

test.beforeAll(async ({ browser }) => {
  relayDir = tempDir("relay");
  relayPort = await freePort();
  const [tokenA, tokenB] = [await addRelayUser(relayDir, "alice"), await addRelayUser(relayDir, "bob")];
  relay = await startRelayProcess(relayDir, relayPort);
  proxyB = await startTcpProxy(relayPort);
  dirA = tempDir("core-a");
  dirB = tempDir("core-b");
  argsA = ["--relay", `ws://127.0.0.1:${relayPort}`, "--relay-token", tokenA];
  [coreA, coreB] = await Promise.all([
    startCore(dirA, argsA),
    startCore(dirB, ["--relay", `ws://127.0.0.1:${proxyB.port}`, "--relay-token", tokenB]),
  ]);
  pageA = await openApp(browser, coreA.ready.url);
  pageB = await openApp(browser, coreB.ready.url);
});

test.afterAll(async ({}, testInfo) => {
  // Process output is the first thing to read when a test here fails.
  for (const [name, started] of Object.entries({ relay, coreA, coreB })) {
    if (started) await testInfo.attach(`${name}.log`, { body: started.output(), contentType: "text/plain" });
  }
  await proxyB?.close();
  await stopAll();
});

/** Waits until both pages show the same text; on timeout the message shows both. */
async function converged(): Promise<string> {
  let texts: string[] = [];
  await expect
    .poll(async () => {
      texts = [await editorText(pageA), await editorText(pageB)];
      return texts[0] === texts[1] ? "same" : `A: ${texts[0]}\nB: ${texts[1]}`;
    }, { timeout: 60_000 })
    .toBe("same");
  return texts[0];
}

test("typing in one page appears in the other", async () => {
  await createDocument(pageA, TITLE);
  await typeAtEnd(pageA, "Hello from Alice.");
  await openDocument(pageB, TITLE);
  await expect(editor(pageB)).toContainText("Hello from Alice.");
  await typeAtEnd(pageB, " And Bob.");
  await expect(editor(pageA)).toContainText("Hello from Alice. And Bob.");
});

test("presence shows who is here by name, and undo only undoes your own typing", async () => {
  await setDisplayName(pageA, "Alice");
  await setDisplayName(pageB, "Bob");
  await typeAtEnd(pageA, " Alice was here.");
  // Attached, not visible: the label fades REMOTE_CARET_LABEL_MS after Alice's last move, which a loaded machine may pass.
  await expect(pageB.locator(".cm-remote-caret-label", { hasText: "Alice" })).toBeAttached();
  await expect(pageB.getByRole("list", { name: /Also here: .*Alice/ })).toBeVisible();
  // Presence can arrive before the last of Alice's keys: Bob types at the end only once her line is all there.
  await expect(editor(pageB)).toContainText("Alice was here.");
  await typeAtEnd(pageB, " Bob too.");
  await expect(editor(pageA)).toContainText("Alice was here. Bob too.");
  // Alice's undo takes back Alice's last typing, never Bob's.
  await editor(pageA).click();
  for (let i = 0; i < 20 && (await editorText(pageA)).includes("Alice was here."); i++) await pageA.keyboard.press("ControlOrMeta+z");
  await expect.poll(() => editorText(pageA)).not.toContain("Alice was here.");
  expect(await editorText(pageA)).toContain("Bob too.");
  await expect.poll(() => editorText(pageB)).not.toContain("Alice was here.");
  expect(await editorText(pageB)).toContain("Bob too.");
});

test("a client offline while both edit keeps every edit of both after reconnecting", async () => {
  proxyB.cut();
  await expect(pageB.getByRole("status", { name: "Sync status" })).toContainText(/offline|reconnecting/i);
  await typeAtEnd(pageA, " Alice offline-time edit.");
  await typeAtEnd(pageB, " Bob offline edit.");
  await expect(pageB.getByRole("status", { name: "Sync status" })).toContainText(/waiting/i);
  proxyB.restore();
  const text = await converged();
  expect(text).toContain("Alice offline-time edit.");
  expect(text).toContain("Bob offline edit.");
});

test("the relay killed with SIGKILL mid-typing and restarted: converged, nothing lost", async () => {
  const typed = " Typing through a relay crash, every key matters.";
  const typing = typeAtEnd(pageA, typed, 40);
  await expect.poll(() => editorText(pageA)).toContain(" Typing through");
  await relay.stop("SIGKILL");
  relay = await startRelayProcess(relayDir, relayPort);
  await typing;
  const text = await converged();
  expect(text).toContain(typed);
  expect(text).toContain("Hello from Alice. And Bob.");
});

test("an app core restarted keeps its documents intact, from its own disk", async ({ browser }) => {
  const typed = " Saved before a crash.";
  await typeAtEnd(pageA, typed);
  // "Saved" is the core's word that the edit is on disk: a SIGKILL right after must not lose it.
  await expect(pageA.getByRole("status", { name: "Save status" })).toHaveText("Saved", { timeout: 15_000 });
  const before = await editorText(pageA);
  expect(before).toContain(typed);
  await pageA.context().close();
  await coreA.stop("SIGKILL");
  // Restarted against a relay address nothing answers: what the page shows can only come from A's own storage.
  const nowhere = ["--relay", `ws://127.0.0.1:${await freePort()}`, "--relay-token", argsA[3]];
  coreA = await startCore(dirA, nowhere);
  pageA = await openApp(browser, coreA.ready.url);
  await openDocument(pageA, TITLE);
  await expect.poll(() => editorText(pageA)).toBe(before);
  await pageA.context().close();
  await coreA.stop("SIGTERM");
  coreA = await startCore(dirA, argsA);
  pageA = await openApp(browser, coreA.ready.url);
  await openDocument(pageA, TITLE);
  await expect.poll(() => editorText(pageA)).toBe(before);
});

test("a revoked user is cut off", async () => {
  await revokeRelayUser(relayDir, "bob");
  await expect(pageB.getByRole("status", { name: "Sync status" })).toContainText(/revoked|refused|cannot join/i, { timeout: 15_000 });
  const line = " Said after Bob left.";
  await typeAtEnd(pageA, line);
  // The relay holds the line (A has nothing waiting), so only the revocation can keep it from Bob.
  await expect(pageA.getByRole("status", { name: "Sync status" })).toHaveText(/^connected$/i, { timeout: 30_000 });
  const sentinel = " Then Alice kept going.";
  await typeAtEnd(pageA, sentinel);
  await expect(pageA.getByRole("status", { name: "Sync status" })).toHaveText(/^connected$/i, { timeout: 30_000 });
  // The relay has held both lines for a while now (a connected teammate gets a line in milliseconds); Bob has neither.
  await expect.poll(() => editorText(pageA)).toContain(line + sentinel);
  await expect(pageB.getByRole("status", { name: "Sync status" })).toContainText(/revoked|refused|cannot join/i);
  expect(await editorText(pageB)).not.toContain(line.trim());
});
