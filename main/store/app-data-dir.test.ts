import { describe, expect, it } from "vitest";
import { defaultDataDir } from "./app-data-dir.js";

describe("defaultDataDir", () => {
  it("follows each OS's convention", () => {
    expect(defaultDataDir("linux", {}, "/home/ada")).toBe("/home/ada/.config/Chopin");
    expect(defaultDataDir("linux", { XDG_CONFIG_HOME: "/xdg" }, "/home/ada")).toBe("/xdg/Chopin");
    expect(defaultDataDir("darwin", {}, "/Users/ada")).toBe("/Users/ada/Library/Application Support/Chopin");
    expect(defaultDataDir("win32", { APPDATA: "C:\\Users\\ada\\AppData\\Roaming" }, "C:\\Users\\ada")).toMatch(/Chopin$/);
  });
});
