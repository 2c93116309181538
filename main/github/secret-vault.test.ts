import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmod, lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChopinError } from "../../shared/errors.js";
import { startFakeGitHub, type FakeGitHub } from "../../test-support/fake-github/server.js";
import { ManualClock } from "./clock.js";
import { CredentialStore } from "./credentials.js";
import { createOsEncryptedVault, createPlaintextFileVault, type OsCipher, type StoredCredential } from "./secret-vault.js";

/** A real AES-256-GCM cipher standing in for Electron's safeStorage (which needs the Electron binary). */
function aesCipher(available = true): OsCipher {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    encryptString(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      return Buffer.concat([iv, c.getAuthTag(), body]);
    },
    decryptString(buf) {
      const d = createDecipheriv("aes-256-gcm", key, buf.subarray(0, 12));
      d.setAuthTag(buf.subarray(12, 28));
      return Buffer.concat([d.update(buf.subarray(28)), d.final()]).toString("utf8");
    },
  };
}

const sample: StoredCredential = { accessToken: "ghu_secret_token", refreshToken: "ghr_secret", expiresAt: 1, refreshTokenExpiresAt: 2, login: "alice", userId: 1 };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chopin-vault-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("plaintext file vault", () => {
  it("refuses to exist without explicit consent", () => {
    expect(() => createPlaintextFileVault({ path: join(dir, "t.json"), explicitPlaintextConsent: false })).toThrow(ChopinError);
    expect(() => createPlaintextFileVault({ path: join(dir, "t.json"), explicitPlaintextConsent: "yes" as unknown as boolean })).toThrow(/explicit consent/);
  });

  it("with consent writes a 0600 file in a 0700 folder and reads it back", async () => {
    const path = join(dir, "nested", "t.json");
    const vault = createPlaintextFileVault({ path, explicitPlaintextConsent: true });
    expect(await vault.load()).toBeNull();
    await vault.save(sample);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
    expect(await vault.load()).toEqual(sample);
    await vault.clear();
    expect(await vault.load()).toBeNull();
  });

  it("writes the token into a new temp file, never through a file or symlink already at the temp name", async () => {
    const path = join(dir, "t.json");
    const elsewhere = join(dir, "elsewhere.txt");
    await writeFile(elsewhere, "untouched");
    await chmod(elsewhere, 0o644);
    await symlink(elsewhere, `${path}.${process.pid}.tmp`);
    const vault = createPlaintextFileVault({ path, explicitPlaintextConsent: true });
    await vault.save(sample);
    expect(await readFile(elsewhere, "utf8")).toBe("untouched");
    expect((await lstat(path)).isFile()).toBe(true);
    expect(await vault.load()).toEqual(sample);
  });

  it("refuses a file others can read", async () => {
    const path = join(dir, "t.json");
    await writeFile(path, JSON.stringify(sample));
    await chmod(path, 0o644);
    await expect(createPlaintextFileVault({ path, explicitPlaintextConsent: true }).load()).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("OS-encrypted vault", () => {
  it("never writes the token in plaintext", async () => {
    const path = join(dir, "sealed.bin");
    const vault = createOsEncryptedVault({ path, cipher: aesCipher() });
    await vault.save(sample);
    const raw = await readFile(path);
    expect(raw.includes(Buffer.from("ghu_secret_token"))).toBe(false);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await vault.load()).toEqual(sample);
  });

  it("refuses to save when the OS offers no encryption (no plaintext fallback)", async () => {
    const path = join(dir, "sealed.bin");
    await expect(createOsEncryptedVault({ path, cipher: aesCipher(false) }).save(sample)).rejects.toMatchObject({ code: "storage-failure" });
    await expect(stat(path)).rejects.toThrow();
  });

  it("treats a file sealed by another key as no saved sign-in", async () => {
    const path = join(dir, "sealed.bin");
    await createOsEncryptedVault({ path, cipher: aesCipher() }).save(sample);
    expect(await createOsEncryptedVault({ path, cipher: aesCipher() }).load()).toBeNull();
  });
});

describe("stay signed in", () => {
  let fake: FakeGitHub;
  beforeEach(async () => {
    fake = await startFakeGitHub();
  });
  afterEach(() => fake.close());

  it("saves on sign-in, restores as a new revision after restart, and sign-out erases it", async () => {
    const path = join(dir, "sealed.bin");
    const cipher = aesCipher();
    const clock = new ManualClock();
    const options = { clientId: fake.state.fixtures.clientId, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock, staySignedIn: true };
    const first = new CredentialStore({ ...options, vault: createOsEncryptedVault({ path, cipher }) });
    const flow = await first.startDeviceFlow();
    const done = flow.wait();
    fake.state.approveDevice(flow.userCode, "alice");
    clock.advance(5000);
    await done;
    await first.flushVault();
    const token = first.current()!.accessToken;
    first.dispose();

    const second = new CredentialStore({ ...options, vault: createOsEncryptedVault({ path, cipher }) });
    expect(await second.restore()).toMatchObject({ login: "alice" });
    expect(second.current()).toMatchObject({ accessToken: token, revision: 1 });
    await second.signOut();
    await expect(stat(path)).rejects.toThrow();
    second.dispose();
  });

  it("restores and refreshes at once when the saved token is inside the refresh lead", async () => {
    const path = join(dir, "sealed.bin");
    const cipher = aesCipher();
    const clock = new ManualClock();
    const issued = fake.state.issueTokens("bob");
    await createOsEncryptedVault({ path, cipher }).save({
      accessToken: issued.accessToken,
      refreshToken: issued.refreshToken,
      expiresAt: clock.now() + 60_000,
      refreshTokenExpiresAt: clock.now() + 86_400_000,
      login: "bob",
      userId: 2,
    });
    const store = new CredentialStore({ clientId: fake.state.fixtures.clientId, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock, staySignedIn: true, vault: createOsEncryptedVault({ path, cipher }) });
    await store.restore();
    expect(store.revision).toBe(2); // restore (1) then refresh (2)
    expect(store.current()!.accessToken).not.toBe(issued.accessToken);
    await store.flushVault();
    expect(await createOsEncryptedVault({ path, cipher }).load()).toMatchObject({ accessToken: store.current()!.accessToken });
    store.dispose();
  });

  it("memory only unless stay-signed-in is on", async () => {
    const path = join(dir, "sealed.bin");
    const clock = new ManualClock();
    const store = new CredentialStore({ clientId: fake.state.fixtures.clientId, webBaseUrl: fake.url, apiBaseUrl: fake.url, clock, vault: createOsEncryptedVault({ path, cipher: aesCipher() }) });
    const flow = await store.startDeviceFlow();
    const done = flow.wait();
    fake.state.approveDevice(flow.userCode, "alice");
    clock.advance(5000);
    await done;
    await store.flushVault();
    await expect(stat(path)).rejects.toThrow();
    await store.setStaySignedIn(true);
    expect((await stat(path)).isFile()).toBe(true);
    await store.setStaySignedIn(false);
    await expect(stat(path)).rejects.toThrow();
    store.dispose();
  });
});
