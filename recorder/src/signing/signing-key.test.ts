// The user's signing key: made on first use, private to its owner, refused when it is not.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, ScriptedProvider } from "@harnessx/core";
import { HookEvent } from "@harnessx/core/extension";
import {
  FlightRecorderExtension,
  SigningKey,
  SigningKeyError,
  existingSigningKey,
  exportIncident,
  keysDir,
  loadSigningKey,
  openBundle,
  readPublicKeyFile,
  rotateSigningKey,
  SIGNING_KEY_FILE,
} from "../index.js";
import { tempDir } from "../../../test/support/system.js";

const { dir, cleanup } = tempDir("hx-keys-");
after(() => cleanup());
let n = 0;
const fresh = () => join(dir, `keys-${++n}`);
const posix = process.platform !== "win32";

const refused = (problem: string, message?: RegExp) => (e: unknown) =>
  e instanceof SigningKeyError && e.problem === problem && (message === undefined || message.test(e.message));

describe("where the key lives", () => {
  test("HARNESSX_KEYS_DIR when set and not empty, else keys/ in the user's harnessx folder", () => {
    assert.equal(keysDir({ HARNESSX_KEYS_DIR: "/ci/keys", HARNESSX_HOME: "/home/x/.hx" }), "/ci/keys");
    assert.equal(keysDir({ HARNESSX_KEYS_DIR: "", HARNESSX_HOME: "/home/x/.hx" }), join("/home/x/.hx", "keys"));
  });
});

describe("loadSigningKey", () => {
  test("makes a key on first use, private to its owner, then loads the same one", async () => {
    const keys = fresh();
    const first = await loadSigningKey(keys);
    assert.equal(first.created, true);
    assert.match(first.key.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
    if (posix) {
      assert.equal(statSync(join(keys, SIGNING_KEY_FILE)).mode & 0o777, 0o600);
      assert.equal(statSync(keys).mode & 0o077, 0);
    }
    const again = await loadSigningKey(keys);
    assert.equal(again.created, false);
    assert.equal(again.key.fingerprint, first.key.fingerprint);
    assert.deepEqual(readdirSync(keys), [SIGNING_KEY_FILE], "no temporary file left");
  });
  test("existingSigningKey reads the key when there is one and never makes one", async () => {
    const keys = fresh();
    assert.equal(await existingSigningKey(keys), undefined);
    assert.equal(statSync(keys, { throwIfNoEntry: false }), undefined, "nothing was made");
    const { key } = await loadSigningKey(keys);
    assert.equal((await existingSigningKey(keys))?.fingerprint, key.fingerprint);
  });
  test("processes making it at once end up with one key", async () => {
    const keys = fresh();
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadSigningKey(keys)));
    assert.equal(new Set(loaded.map((l) => l.key.fingerprint)).size, 1);
    assert.equal(loaded.filter((l) => l.created).length, 1);
  });
  test("a key file others may read is refused, naming the fix; group or other bits alike", {
    skip: !posix && "no permission bits on Windows",
  }, async () => {
    const keys = fresh();
    await loadSigningKey(keys);
    const file = join(keys, SIGNING_KEY_FILE);
    for (const mode of [0o644, 0o640, 0o604, 0o660]) {
      chmodSync(file, mode);
      await assert.rejects(
        loadSigningKey(keys),
        refused("loose_permissions", new RegExp(`mode 0${mode.toString(8)}.*chmod 600 ${file.replace(/[/\\]/g, ".")}`)),
      );
    }
    chmodSync(file, 0o400);
    assert.equal((await loadSigningKey(keys)).created, false, "read-only to its owner is fine");
  });
  test("a file that holds no Ed25519 private key is refused", async () => {
    for (const [content, problem] of [
      ["not a key", "unreadable"],
      [
        generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }),
        "not_ed25519",
      ],
    ] as const) {
      const keys = fresh();
      mkdirSync(keys);
      writeFileSync(join(keys, SIGNING_KEY_FILE), content, { mode: 0o600 });
      await assert.rejects(loadSigningKey(keys), refused(problem));
    }
  });
  test("rotation makes a new key and keeps the old file; bundles signed before keep their signer", async () => {
    const keys = fresh();
    const old = (await loadSigningKey(keys)).key;
    const rotated = await rotateSigningKey(keys);
    assert.equal(rotated.retired?.fingerprint, old.fingerprint);
    assert.notEqual(rotated.key.fingerprint, old.fingerprint);
    assert.equal((await loadSigningKey(keys)).key.fingerprint, rotated.key.fingerprint);
    assert.equal(
      SigningKey.fromPem(
        await import("node:fs/promises").then((fs) => fs.readFile(rotated.retiredPath!, "utf8")),
        rotated.retiredPath!,
      ).fingerprint,
      old.fingerprint,
    );
  });
});

describe("public keys", () => {
  test("a key's public PEM reads back to its fingerprint; a private key, another algorithm or no file is refused", async () => {
    const key = SigningKey.generate();
    const pub = join(dir, "me.pub");
    writeFileSync(pub, key.publicKeyPem());
    assert.equal(await readPublicKeyFile(pub), key.fingerprint);
    const priv = join(dir, "oops.pem");
    writeFileSync(priv, generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));
    await assert.rejects(readPublicKeyFile(priv), refused("private_key_given"));
    const ec = join(dir, "ec.pub");
    writeFileSync(
      ec,
      generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({ type: "spki", format: "pem" }),
    );
    await assert.rejects(readPublicKeyFile(ec), refused("not_ed25519"));
    await assert.rejects(readPublicKeyFile(join(dir, "missing.pub")), refused("not_found"));
  });
});

describe("exports sign with the user's key", () => {
  async function failedRun(recorder: FlightRecorderExtension): Promise<string> {
    const agent = new Agent({
      provider: new ScriptedProvider([{ error: { status: 400, message: "bad request" } }]),
      extensions: [recorder],
    });
    const { runId } = await agent.run("go");
    await agent.close();
    return runId;
  }
  test("exportIncident without a key signs with the key of HARNESSX_KEYS_DIR, made on first export", async (t) => {
    const keys = fresh();
    const previous = process.env.HARNESSX_KEYS_DIR;
    process.env.HARNESSX_KEYS_DIR = keys;
    t.after(() =>
      previous === undefined ? delete process.env.HARNESSX_KEYS_DIR : (process.env.HARNESSX_KEYS_DIR = previous),
    );
    const store = join(dir, `store-${++n}`);
    const runId = await failedRun(new FlightRecorderExtension({ dir: store }));
    const exported = await exportIncident({ dir: store, runId, reason: "manual", out: join(store, "b.tar") });
    const { key } = await loadSigningKey(keys);
    assert.equal(exported.signedBy, key.fingerprint);
    assert.equal(
      (await openBundle(exported.path, { signedBy: [key.fingerprint] })).signer?.fingerprint,
      key.fingerprint,
    );
  });
  test("an automatic export with an unusable key is written unsigned, and the key's problem reported", {
    skip: !posix && "no permission bits on Windows",
  }, async (t) => {
    const keys = fresh();
    await loadSigningKey(keys);
    chmodSync(join(keys, SIGNING_KEY_FILE), 0o644);
    const previous = process.env.HARNESSX_KEYS_DIR;
    process.env.HARNESSX_KEYS_DIR = keys;
    t.after(() =>
      previous === undefined ? delete process.env.HARNESSX_KEYS_DIR : (process.env.HARNESSX_KEYS_DIR = previous),
    );
    const store = join(dir, `store-${++n}`);
    const recorder = new FlightRecorderExtension({ dir: store, autoExport: "on_failure" });
    const errors: unknown[] = [];
    const agent = new Agent({
      provider: new ScriptedProvider([{ error: { status: 400, message: "bad request" } }]),
      extensions: [recorder],
    });
    agent.hooks.on(HookEvent.ERROR, (ctx) => void errors.push(ctx.data));
    await agent.run("go");
    await agent.close();
    assert.equal(recorder.bundles.length, 1, "the evidence is kept");
    assert.equal(recorder.bundles[0]!.signedBy, null);
    assert.equal((await openBundle(recorder.bundles[0]!.path)).signer, null);
    assert.ok(
      errors.some(
        (e) =>
          (e as { source?: string }).source === "recorder" &&
          /chmod 600/.test(String((e as { error?: Error }).error?.message)),
      ),
      "the key's problem is reported",
    );
  });
});
