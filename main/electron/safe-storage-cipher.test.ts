import { describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOsEncryptedVault } from "../github/secret-vault.js";
import { createSafeStorageCipher, type SafeStorageLike } from "./safe-storage-cipher.js";

// Electron itself is not installed here (no binary): the adapter is tested against a safeStorage stand-in shaped like
// Electron's, and must never need the real module at import time.
vi.mock("electron", () => {
  throw new Error("the adapter must not load electron at runtime");
});

function fakeSafeStorage(options: { available?: boolean; backend?: ReturnType<NonNullable<SafeStorageLike["getSelectedStorageBackend"]>> } = {}) {
  const calls: string[] = [];
  const storage: SafeStorageLike = {
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? "gnome_libsecret",
    encryptString: (plain: string) => (calls.push("encrypt"), Buffer.from(`enc:${Buffer.from(plain).toString("base64")}`)),
    decryptString: (enc: Buffer) => (calls.push("decrypt"), Buffer.from(enc.toString().slice(4), "base64").toString()),
  };
  return { storage, calls };
}

const credential = { accessToken: "ghu_secret", refreshToken: "ghr_secret", expiresAt: 1, refreshTokenExpiresAt: 2, login: "alice", userId: 1 };

describe("createSafeStorageCipher", () => {
  it("round-trips through safeStorage and the vault writes no token text", async () => {
    const { storage, calls } = fakeSafeStorage();
    const cipher = createSafeStorageCipher(storage, "linux");
    expect(cipher.isEncryptionAvailable()).toBe(true);
    const path = join(mkdtempSync(join(tmpdir(), "chopin-safe-")), "s.enc");
    const vault = createOsEncryptedVault({ path, cipher });
    await vault.save(credential);
    expect(readFileSync(path, "utf8")).not.toContain("ghu_secret");
    expect(await vault.load()).toEqual(credential);
    expect(calls).toEqual(["encrypt", "decrypt"]);
  });

  it.each(["basic_text", "unknown"] as const)("treats Linux's %s backend as no encryption, and the vault refuses to save", async (backend) => {
    const { storage, calls } = fakeSafeStorage({ backend });
    const cipher = createSafeStorageCipher(storage, "linux");
    expect(cipher.isEncryptionAvailable()).toBe(false);
    expect(() => cipher.encryptString("x")).toThrow(/no encryption/);
    const vault = createOsEncryptedVault({ path: join(mkdtempSync(join(tmpdir(), "chopin-safe-")), "s.enc"), cipher });
    await expect(vault.save(credential)).rejects.toMatchObject({ code: "storage-failure" });
    expect(calls).toEqual([]);
  });

  it("ignores the Linux backend on other systems, and follows isEncryptionAvailable", () => {
    expect(createSafeStorageCipher(fakeSafeStorage({ backend: "basic_text" }).storage, "darwin").isEncryptionAvailable()).toBe(true);
    expect(createSafeStorageCipher(fakeSafeStorage({ available: false }).storage, "win32").isEncryptionAvailable()).toBe(false);
  });

  it("an error while asking counts as no encryption", () => {
    const storage = { ...fakeSafeStorage().storage, isEncryptionAvailable: () => { throw new Error("not ready"); } };
    expect(createSafeStorageCipher(storage, "darwin").isEncryptionAvailable()).toBe(false);
  });
});
