import { describe, expect, it } from "vitest";
import { optionalOptionsObject, requireOptionsObject } from "./options-object.js";

describe("options objects", () => {
  it("takes a plain object as it is", () => {
    const options = { title: "T" };
    expect(requireOptionsObject(options, "Options")).toBe(options);
    expect(optionalOptionsObject(options, "Options")).toBe(options);
    expect(optionalOptionsObject(undefined, "Options")).toBeUndefined();
  });

  it("refuses anything else with a sentence naming what was sent", () => {
    const sent: Array<[unknown, string]> = [
      ["text", "not text"],
      [5, "not a number"],
      [null, "not null"],
      [[], "not a list"],
      [false, "not true or false"],
    ];
    for (const [value, words] of sent) {
      expect(() => optionalOptionsObject(value, "Options")).toThrow(
        expect.objectContaining({ code: "invalid-input", message: `Options must be sent as an object (or left out), ${words}.` }),
      );
      expect(() => requireOptionsObject(value, "Options")).toThrow(
        expect.objectContaining({ code: "invalid-input", message: `Options must be sent as an object, ${words}.` }),
      );
    }
    expect(() => requireOptionsObject(undefined, "Options")).toThrow(
      expect.objectContaining({ code: "invalid-input", message: "Options must be sent as an object, none was sent." }),
    );
  });
});
