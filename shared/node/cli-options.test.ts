import { describe, expect, it } from "vitest";
import { readOptions } from "./cli-options.js";

const OPTIONS = { port: { type: "string" }, quiet: { type: "boolean", short: "q" } } as const;

describe("readOptions (util.parseArgs with our sentences)", () => {
  it("reads values in both forms, switches, short names and words", () => {
    expect(readOptions(["--port", "80", "-q", "serve"], OPTIONS, { positionals: true })).toEqual({ values: { port: "80", quiet: true }, positionals: ["serve"] });
    expect(readOptions(["--port=81"], OPTIONS).values).toEqual({ port: "81" });
  });

  it("refuses in sentences: an unknown option with what is offered, a missing or empty value, a value for a switch, a stray word", () => {
    expect(() => readOptions(["--bogus"], OPTIONS, { offered: "Options: --port P." })).toThrow(
      expect.objectContaining({ code: "invalid-input", message: "Unknown option “--bogus”. Options: --port P." }),
    );
    expect(() => readOptions(["--port"], OPTIONS)).toThrow("--port needs a value.");
    expect(() => readOptions(["--port="], OPTIONS)).toThrow("--port needs a value.");
    expect(() => readOptions(["--quiet=yes"], OPTIONS)).toThrow("--quiet takes no value.");
    expect(() => readOptions(["serve"], OPTIONS)).toThrow("Unexpected argument “serve”.");
  });

  it("takes a value that begins with a dash, as a random token may, but not another option's name", () => {
    const withToken = { token: { type: "string", short: "t" }, port: { type: "string" } } as const;
    expect(readOptions(["--token", "-x9_aZ", "--port", "80"], withToken).values).toEqual({ token: "-x9_aZ", port: "80" });
    expect(readOptions(["--token", "--k3y"], withToken).values).toEqual({ token: "--k3y" });
    expect(readOptions(["-t", "-abc"], withToken).values).toEqual({ token: "-abc" });
    expect(() => readOptions(["--token", "--port", "80"], withToken)).toThrow("--token needs a value.");
  });

  it("leaves options it does not know alone when not strict (Chromium's own switches)", () => {
    expect(readOptions(["--port", "80", "--enable-logging", "."], OPTIONS, { strict: false }).values).toMatchObject({ port: "80" });
  });
});
