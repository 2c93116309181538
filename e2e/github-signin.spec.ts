/**
 * GitHub identity and repository binding end to end: a host-mode core pointed at the fake GitHub (another process),
 * a Chromium page. The person signs in with the device flow (the test plays GitHub approving the code shown), binds
 * a document to a repository through the picker, signs out, and keeps editing: nothing in the app waits on GitHub.
 */
import { expect, test, type Page } from "@playwright/test";
import { connectFakeGitHub } from "../test-support/fake-github/control.js";
import { defaultFixtures } from "../test-support/fake-github/fixtures.js";
import { createDocument, editor, editorText, openApp, typeAtEnd } from "./support/app-page.js";
import { startFakeGitHubProcess, type FakeGitHubProcess } from "./support/fake-github.js";
import { startCore, stopAll, tempDir, type CoreReady, type Started } from "./support/processes.js";

test.describe.configure({ mode: "serial" });

let fake: FakeGitHubProcess;
let core: Started<CoreReady>;
let page: Page;
const TITLE = "Orbit plan";

test.beforeAll(async ({ browser }) => {
  fake = await startFakeGitHubProcess();
  core = await startCore(tempDir("github"), [
    "--github-client-id",
    defaultFixtures().clientId,
    "--github-api-url",
    fake.url,
    "--github-web-url",
    fake.url,
  ]);
  page = await openApp(browser, core.ready.url);
});

test.afterAll(async () => {
  await stopAll();
  await fake?.stop();
});

const account = () => page.getByRole("region", { name: "GitHub account" });
const repositoryGroup = () => page.getByRole("group", { name: "Repository" });

async function openSettings() {
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
}

async function closeSettings() {
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Settings" })).toBeHidden();
}

test("signs in with the device flow: the code shown, approved at GitHub, the login shown", async () => {
  await expect(page.getByRole("button", { name: "GitHub account" })).toContainText("Not signed in");
  await openSettings();
  await account().getByRole("button", { name: "Sign in with GitHub" }).click();
  const codeBox = account().getByTestId("device-code");
  await expect(codeBox).toHaveText(/^FAKE-\d{4}$/);
  const code = (await codeBox.textContent())!;
  const link = account().getByRole("link", { name: `${fake.url}/login/device` });
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noreferrer");
  // The copy button's live region is a status too (empty until a copy).
  await expect(account().getByText("Waiting for GitHub…")).toHaveAttribute("role", "status");

  await connectFakeGitHub(fake.url).approveDevice(code, "alice");
  // The core polls at GitHub's interval (5 s), so this waits on the condition, not a sleep.
  await expect(account()).toContainText("Signed in as @alice", { timeout: 30_000 });
  await expect(account()).toContainText("Alice Example");
  await expect(account()).toContainText("Credential revision 1");
  await expect(page.getByRole("button", { name: "GitHub account" })).toContainText("alice");
  await closeSettings();
});

test("binds a document to a repository through the picker; the header shows owner/name, also after a reload", async () => {
  await createDocument(page, TITLE);
  await repositoryGroup().getByRole("button", { name: "Bind repository" }).click();
  const dialog = page.getByRole("dialog", { name: "Bind repository" });
  await expect(dialog.getByRole("list", { name: "Installations" })).toBeVisible();
  await dialog.getByRole("button", { name: "Bind octo-org/planets" }).click();
  await expect(dialog).toBeHidden();
  await expect(repositoryGroup()).toContainText("octo-org/planets");

  await page.reload();
  await page.getByRole("navigation").getByText(TITLE, { exact: true }).click();
  await expect(repositoryGroup()).toContainText("octo-org/planets");
});

test("signs out; the document stays editable and keeps its binding", async () => {
  await openSettings();
  await account().getByRole("button", { name: "Sign out" }).click();
  await expect(account().getByRole("button", { name: "Sign in with GitHub" })).toBeVisible();
  await closeSettings();
  await expect(page.getByRole("button", { name: "GitHub account" })).toContainText("Not signed in");

  await expect(editor(page)).toBeVisible();
  await typeAtEnd(page, "Still writing after sign-out.");
  await expect.poll(() => editorText(page)).toContain("Still writing after sign-out.");
  await expect(repositoryGroup()).toContainText("octo-org/planets");

  // Binding again needs a sign-in, and the picker says so.
  await repositoryGroup().getByRole("button", { name: "Change repository" }).click();
  await expect(page.getByRole("dialog", { name: "Bind repository" })).toContainText("Sign in with GitHub to choose a repository");
});
