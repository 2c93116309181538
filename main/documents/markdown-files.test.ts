/**
 * Plans as Markdown files (issue #24): exported with the title as the first heading and a file name from the title;
 * imported as a new private plan titled from the first heading (else the file name); a file that is not UTF-8 or
 * larger than a plan holds is refused whole, naming the file, and nothing of it is kept.
 */
import { describe, expect, it } from "vitest";
import { MAX_DOCUMENT_MARKDOWN_BYTES } from "../../shared/limits.js";
import { exportFileName, exportMarkdown, MAX_EXPORT_FILE_STEM_CHARS } from "./markdown-files.js";
import { fixturesClosedAfterEach, TEST_RELAY_URL } from "./test-fixture.js";

const fixture = fixturesClosedAfterEach();
const base64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64");

describe("exporting a plan as Markdown", () => {
  it("puts the title first as a heading, unless the body already opens with it", () => {
    expect(exportMarkdown("Launch plan", "Steps.\n")).toEqual({ fileName: "Launch plan.md", markdown: "# Launch plan\n\nSteps.\n" });
    expect(exportMarkdown("Launch plan", "# Launch plan\n\nSteps.\n").markdown).toBe("# Launch plan\n\nSteps.\n");
    expect(exportMarkdown("Launch plan", "Launch plan\n===\n\nSteps.\n").markdown).toBe("Launch plan\n===\n\nSteps.\n");
  });

  it("names the file from the title without characters file systems refuse, cut at MAX_EXPORT_FILE_STEM_CHARS", () => {
    expect(exportFileName('Q3: a/b "plan"?')).toBe("Q3 a b plan.md");
    expect(exportFileName("...hidden")).toBe("hidden.md");
    expect(exportFileName("   ")).toBe("Untitled plan.md");
    const long = "é".repeat(MAX_EXPORT_FILE_STEM_CHARS + 10);
    expect(exportFileName(long)).toBe(`${"é".repeat(MAX_EXPORT_FILE_STEM_CHARS)}.md`);
  });

  it("exports what the plan holds, through the service", async () => {
    const fx = await fixture();
    const plan = await fx.service.createDocument({ title: "Roadmap", markdown: "- first\n- second\n" });
    expect(await fx.service.exportMarkdown(plan.id)).toEqual({ fileName: "Roadmap.md", markdown: "# Roadmap\n\n- first\n- second\n" });
  });
});

describe("importing a Markdown file", () => {
  it("makes a private plan titled from its first heading, keeping the whole text; a round trip keeps the title", async () => {
    const fx = await fixture({ relayUrl: TEST_RELAY_URL });
    const text = "\ufeffIntro line\n\nMy plan\n=======\n\n```\n# not a title\n```\n";
    const plan = await fx.service.importMarkdown({ name: "notes.md", contentBase64: base64(text) });
    expect(plan).toMatchObject({ title: "My plan", shared: false });
    expect((await fx.service.getContent(plan.id)).markdown).toBe(text.slice(1));
    const exported = await fx.service.exportMarkdown(plan.id);
    const again = await fx.service.importMarkdown({ name: exported.fileName, contentBase64: base64(exported.markdown) });
    expect(again.title).toBe("My plan");
  });

  it("is titled from the file's name when it has no heading", async () => {
    const fx = await fixture();
    expect((await fx.service.importMarkdown({ name: "Team retro.md", contentBase64: base64("just text") })).title).toBe("Team retro");
    expect((await fx.service.importMarkdown({ name: ".md", contentBase64: base64("just text") })).title).toBe("Untitled plan");
  });

  it("refuses a file that is not UTF-8, or is larger than a plan holds, naming it, and keeps nothing", async () => {
    const fx = await fixture();
    const latin1 = Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x0a]);
    await expect(fx.service.importMarkdown({ name: "café.md", contentBase64: base64(latin1) })).rejects.toMatchObject({
      code: "invalid-input",
      message: "“café.md” is not UTF-8 text, so it was not imported. Save it as UTF-8 and import it again.",
    });
    const atLimit = "a".repeat(MAX_DOCUMENT_MARKDOWN_BYTES);
    await expect(fx.service.importMarkdown({ name: "big.md", contentBase64: base64(`${atLimit}b`) })).rejects.toMatchObject({
      code: "too-large",
      message: expect.stringMatching(/^“big\.md” is 257 KB, more than the 256 KB a plan holds/),
    });
    expect(await fx.service.listDocuments()).toEqual([]);
    // At the limit it fits.
    await expect(fx.service.importMarkdown({ name: "full.md", contentBase64: base64(atLimit) })).resolves.toMatchObject({ title: "full" });
  });
});
