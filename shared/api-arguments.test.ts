/**
 * The API's argument schemas (issue #24): every method has one; an options argument that is not a plain object is
 * refused naming what was sent (the words moved here with the check from the services); fields of the wrong type are
 * refused in a sentence; unknown fields are dropped.
 */
import { describe, expect, it } from "vitest";
import { API_METHODS } from "./api.js";
import { API_ARGUMENTS, checkArguments } from "./api-arguments.js";

const refusal = (message: string | RegExp) => expect.objectContaining({ code: "invalid-input", message: typeof message === "string" ? message : expect.stringMatching(message) });

describe("the API's argument schemas", () => {
  it("cover every method", () => {
    expect(Object.keys(API_ARGUMENTS).sort()).toEqual([...API_METHODS].sort());
  });

  it("refuse an options argument that is not a plain object, naming what was sent", () => {
    const sent: Array<[unknown, string]> = [
      ["just a string", "not text"],
      ["x".repeat(200 * 1024), "not text"],
      [5, "not a number"],
      [null, "not null"],
      [[], "not a list"],
      [true, "not true or false"],
    ];
    for (const [value, words] of sent) {
      expect(() => checkArguments("createDocument", [value])).toThrow(refusal(`A new document's details must be sent as an object (or left out), ${words}.`));
      expect(() => checkArguments("listDocuments", [value])).toThrow(refusal(`A document list query must be sent as an object (or left out), ${words}.`));
      expect(() => checkArguments("startSignIn", [value])).toThrow(refusal(`Sign-in options must be sent as an object (or left out), ${words}.`));
      expect(() => checkArguments("updateSettings", [value])).toThrow(refusal(`Settings must be sent as an object, ${words}.`));
      expect(() => checkArguments("importMarkdown", [value])).toThrow(refusal(`A Markdown file must be sent as an object, ${words}.`));
    }
    expect(() => checkArguments("updateSettings", [])).toThrow(refusal("Settings must be sent as an object, none was sent."));
    // Left out where the method allows it: the defaults.
    expect(checkArguments("createDocument", [])).toEqual([undefined]);
    expect(checkArguments("listDocuments", [undefined])).toEqual([undefined]);
  });

  it("refuse fields of the wrong type in a sentence, and drop unknown ones", () => {
    expect(() => checkArguments("listDocuments", [{ archived: "yes" }])).toThrow(refusal(/archived must be true or false/));
    expect(() => checkArguments("createDocument", [{ shared: "yes" }])).toThrow(refusal("shared must be true or false."));
    expect(() => checkArguments("getDocument", [42])).toThrow(refusal(/A document id is text/));
    expect(() => checkArguments("waitSaved", ["id", "abc"])).toThrow(refusal(/list of change hashes/));
    expect(() => checkArguments("listInstallationRepositories", ["7"])).toThrow(refusal("An installation id is a number."));
    expect(checkArguments("createDocument", [{ title: "T", evil: true }])).toEqual([{ title: "T" }]);
  });

  it("refuse arguments that are not a list, and a list too long", () => {
    expect(() => checkArguments("getSettings", "x")).toThrow(refusal("Arguments must be sent as a list."));
    expect(() => checkArguments("getDocument", ["a", "b"])).toThrow(expect.objectContaining({ code: "invalid-input" }));
  });
});
