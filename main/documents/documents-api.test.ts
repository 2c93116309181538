/**
 * The documents half of ChopinApi at its boundary (issue #24): arguments are checked by the method's schema before the
 * service reads them (these refusals moved here from the service with the check), sharing asks for a relay first.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_DOCUMENT_TITLE } from "../../shared/limits.js";
import { createDocumentsApi } from "./documents-api.js";
import { fixturesClosedAfterEach, TEST_RELAY_URL } from "./test-fixture.js";

const fixture = fixturesClosedAfterEach();

async function api(relayUrl: string | null = null) {
  const fx = await fixture(relayUrl === null ? {} : { relayUrl });
  const shared: string[] = [];
  const documents = createDocumentsApi(fx.service, {
    relayUrl: () => relayUrl,
    farewell: async () => {},
    shareConfigChanged: () => void shared.push("re-announced"),
  });
  return { fx, documents, shared };
}

describe("the documents API", () => {
  it("refuses a create or list whose input is not an object, and makes nothing; no input at all is the defaults", async () => {
    const { documents } = await api();
    const notObjects: Array<[unknown, string]> = [
      ["just a string", "text"],
      ["x".repeat(200 * 1024), "text"],
      [5, "a number"],
      [null, "null"],
      [[], "a list"],
      [true, "true or false"],
    ];
    for (const [input, kind] of notObjects) {
      await expect(documents.createDocument(input as never), String(input).slice(0, 20)).rejects.toMatchObject({
        code: "invalid-input",
        message: `A new document's details must be sent as an object (or left out), not ${kind}.`,
      });
      await expect(documents.listDocuments(input as never)).rejects.toMatchObject({
        code: "invalid-input",
        message: `A document list query must be sent as an object (or left out), not ${kind}.`,
      });
    }
    expect(await documents.listDocuments()).toEqual([]);
    // The UI's New sends no input: a default document, as before.
    expect(await documents.createDocument(undefined as never)).toMatchObject({ title: DEFAULT_DOCUMENT_TITLE });
    expect(await documents.listDocuments(undefined)).toHaveLength(1);
  });

  it("refuses a list query whose archived is not true or false, instead of reading it as false", async () => {
    const { documents } = await api();
    await expect(documents.listDocuments({ archived: "yes" as never })).rejects.toMatchObject({ code: "invalid-input", message: expect.stringMatching(/archived must be true or false/) });
    await expect(documents.listDocuments({ archived: true })).resolves.toEqual([]);
  });

  it("refuses sharing with no relay ('no-relay'), and re-announces once a share is made", async () => {
    const none = await api();
    const plan = await none.documents.createDocument({ title: "P" });
    await expect(none.documents.shareDocument(plan.id)).rejects.toMatchObject({ code: "no-relay" });
    await expect(none.documents.createDocument({ shared: true })).rejects.toMatchObject({ code: "no-relay" });

    const withRelay = await api(TEST_RELAY_URL);
    const mine = await withRelay.documents.createDocument({ title: "Q", shared: false });
    await expect(withRelay.documents.shareDocument(mine.id)).resolves.toMatchObject({ shared: true });
    expect(withRelay.shared).toEqual(["re-announced"]);
  });

  it("refuses an import that is not a file's name and bytes", async () => {
    const { documents } = await api();
    await expect(documents.importMarkdown({ name: 3, contentBase64: "" } as never)).rejects.toMatchObject({ code: "invalid-input", message: "A file's name must be text." });
    await expect(documents.importMarkdown("x" as never)).rejects.toMatchObject({ code: "invalid-input", message: "A Markdown file must be sent as an object, not text." });
    expect(await documents.listDocuments()).toEqual([]);
  });
});
