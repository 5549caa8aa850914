// Signed bundles through the real CLI: export signs with the user's key (made on first export,
// mode 0600), verify says exactly what it proves and requires a signer with --key or --trusted
// (exit 6 otherwise), trace keys shares, trusts and rotates, scrub re-signs and says so.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SigningKey } from "harnessx";
import { cliWorkspace, recordSupportRun, runTrace, type CliRun } from "@harnessx/cli/test-support";
import { manifestOf, membersOf, reseal, withMember, writeTar, type TarMember } from "@harnessx/recorder/test-support";

const cli = cliWorkspace("hx-signing-");
const posix = process.platform !== "win32";
let runId: string;
let n = 0;

/** `trace` as the user whose keys are in `keys` (a folder of the workspace). */
const as =
  (keys: string) =>
  (...args: string[]): Promise<CliRun> =>
    runTrace(["--store", cli.store, ...args], { cwd: cli.work, env: { HARNESSX_KEYS_DIR: join(cli.work, keys) } });
const alice = as("alice-keys");
const bob = as("bob-keys");

async function exported(trace: (...args: string[]) => Promise<CliRun>): Promise<string> {
  const out = join(cli.work, `bundle-${++n}.tar`);
  const r = await trace("export", runId, "-o", out);
  assert.equal(r.code, 0, r.stderr);
  return out;
}

async function publicKeyOf(
  trace: (...args: string[]) => Promise<CliRun>,
  name: string,
): Promise<{ file: string; fingerprint: string }> {
  const pem = await trace("keys", "--public");
  const file = join(cli.work, `${name}.pub`);
  writeFileSync(file, pem.stdout);
  const shown = JSON.parse((await trace("--json", "keys")).stdout) as { fingerprint: string };
  return { file, fingerprint: shown.fingerprint };
}

async function forged(members: TarMember[], edit: (m: TarMember[]) => TarMember[], key?: SigningKey): Promise<string> {
  const path = join(cli.work, `forged-${++n}.tar`);
  await writeTar(path, reseal(edit(members), undefined, key));
  return path;
}
const renamedAgent = (members: TarMember[]): TarMember[] => {
  const run = JSON.parse(members.find((m) => m.name === "run.json")!.data.toString()) as { agent: string };
  return withMember(members, "run.json", Buffer.from(JSON.stringify({ ...run, agent: "someone else" })));
};

before(async () => {
  runId = (await recordSupportRun(cli.store)).runId;
});
after(() => cli.cleanup());

describe("export signs; verify says what it proves", () => {
  test("the first export makes the user's key (mode 0600) and says so; verify names it as yours", async () => {
    const first = await alice("export", runId, "-o", join(cli.work, "first.tar"));
    assert.equal(first.code, 0, first.stderr);
    const keyFile = join(cli.work, "alice-keys", "signing-key.pem");
    assert.match(first.stdout, /signed with your key SHA256:\S+; it was made now, in .*signing-key\.pem/);
    if (posix) assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    const again = await alice("export", runId, "-o", join(cli.work, "second.tar"));
    assert.doesNotMatch(again.stdout, /made now/);
    const { fingerprint } = await publicKeyOf(alice, "alice");
    const verified = await alice("verify", join(cli.work, "second.tar"));
    assert.equal(verified.code, 0, verified.stderr);
    assert.ok(verified.stdout.includes(`signed by ${fingerprint} (your key)`), verified.stdout);
    const json = JSON.parse((await alice("--json", "verify", join(cli.work, "second.tar"))).stdout) as {
      signed: boolean;
      signer: { fingerprint: string; own: boolean };
    };
    assert.deepEqual([json.signed, json.signer.fingerprint, json.signer.own], [true, fingerprint, true]);
  });
  test("an unsigned bundle (as every older one) verifies as intact and unsigned; --key refuses it (exit 6)", async () => {
    const unsigned = await forged(await membersOf(await exported(alice)), (m) => m);
    const r = await alice("verify", unsigned);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /unsigned: intact, but anyone could have written or changed it/);
    const required = await alice("verify", unsigned, "--key", (await publicKeyOf(alice, "alice")).file);
    assert.equal(required.code, 6);
    assert.match(
      required.stderr,
      /unsigned \(anyone could have written or changed it\), and a signature by SHA256:\S+ is required/,
    );
  });
});

describe("--key requires a signer: forgeries with recomputed checksums", () => {
  test("a tampered member re-signed by an attacker's key: verify names the attacker's key; --key (file or fingerprint) refuses it naming both (exit 6)", async () => {
    const attacker = SigningKey.generate();
    const me = await publicKeyOf(alice, "alice");
    const bundle = await forged(await membersOf(await exported(alice)), renamedAgent, attacker);
    const plain = await alice("verify", bundle);
    assert.equal(plain.code, 0);
    assert.ok(
      plain.stdout.includes(`signed by ${attacker.fingerprint} (a key you do not trust: anyone can make one)`),
      plain.stdout,
    );
    for (const key of [me.file, me.fingerprint]) {
      const r = await alice("verify", bundle, "--key", key);
      assert.equal(r.code, 6, r.stderr);
      assert.ok(r.stderr.includes(attacker.fingerprint) && r.stderr.includes(me.fingerprint), r.stderr);
    }
  });
  test("a tampered member with the owner's signature kept is refused by any verify (exit 4)", async () => {
    const members = await membersOf(await exported(alice));
    const resealed = reseal(renamedAgent(members));
    const manifest = { ...manifestOf(resealed), signature: manifestOf(members).signature };
    const path = join(cli.work, `stale-${++n}.tar`);
    const bytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    const sums = resealed
      .find((m) => m.name === "SHA256SUMS")!
      .data.toString()
      .replace(
        /^\S+(?= {2}manifest\.json$)/m,
        (await import("node:crypto")).createHash("sha256").update(bytes).digest("hex"),
      );
    await writeTar(path, withMember(withMember(resealed, "manifest.json", bytes), "SHA256SUMS", Buffer.from(sums)));
    const r = await alice("verify", path);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /fails its signature check: the signature by SHA256:\S+ does not match it/);
  });
  test("a key file that is no key, a private key, or missing: exit 4, 4, 3", async () => {
    const bundle = await exported(alice);
    const junk = join(cli.work, "junk.pub");
    writeFileSync(junk, "hello");
    assert.equal((await alice("verify", bundle, "--key", junk)).code, 4);
    const priv = await alice("verify", bundle, "--key", join(cli.work, "alice-keys", "signing-key.pem"));
    assert.equal(priv.code, 4);
    assert.match(priv.stderr, /holds a private key: give the public key/);
    assert.equal((await alice("verify", bundle, "--key", join(cli.work, "nobody.pub"))).code, 3);
  });
});

describe("trace keys: trusting a teammate, rotating", () => {
  test("bob's bundle: refused under --trusted until alice trusts bob's key; untrusted again after --untrust", async () => {
    const bundle = await exported(bob);
    const bobKey = await publicKeyOf(bob, "bob");
    assert.equal((await alice("verify", bundle, "--trusted")).code, 6);
    assert.equal((await alice("keys", "--trust", bobKey.file)).code, 2, "--trust needs --name");
    const trusted = await alice("keys", "--trust", bobKey.file, "--name", "bob");
    assert.equal(trusted.code, 0, trusted.stderr);
    const r = await alice("verify", bundle, "--trusted");
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes(`signed by ${bobKey.fingerprint} (trusted as "bob", as required)`), r.stdout);
    assert.match((await alice("keys")).stdout, /keys you trust:\n {2}SHA256:\S+ {2}bob/);
    assert.equal((await alice("keys", "--untrust", "bob")).code, 0);
    assert.equal((await alice("verify", bundle, "--trusted")).code, 6);
    assert.equal((await alice("keys", "--untrust", "bob")).code, 3);
  });
  test("rotation: a new key signs; a bundle signed before verifies under the old fingerprint, not under --trusted", async () => {
    const carol = as("carol-keys");
    const before = await exported(carol);
    const old = await publicKeyOf(carol, "carol-old");
    const rotated = await carol("keys", "--rotate");
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.ok(rotated.stdout.includes(`the old one, ${old.fingerprint}, is kept as`), rotated.stdout);
    const now = await publicKeyOf(carol, "carol-new");
    assert.notEqual(now.fingerprint, old.fingerprint);
    assert.equal((await carol("verify", before, "--key", old.fingerprint)).code, 0);
    assert.equal((await carol("verify", before, "--trusted")).code, 6);
    assert.equal((await carol("verify", await exported(carol), "--key", now.file)).code, 0);
  });
  test("a signing key others may read is refused: export exits 4 naming the fix and writes nothing", {
    skip: !posix && "no permission bits on Windows",
  }, async () => {
    const dave = as("dave-keys");
    await exported(dave);
    chmodSync(join(cli.work, "dave-keys", "signing-key.pem"), 0o644);
    const out = join(cli.work, "dave-loose.tar");
    const r = await dave("export", runId, "-o", out);
    assert.equal(r.code, 4);
    assert.match(r.stderr, /mode 0644: others than its owner may read it, so it is not used; run chmod 600 /);
    assert.equal(existsSync(out), false);
  });
});

describe("trace scrub re-signs", () => {
  test("a scrubbed copy of bob's bundle is signed by the scrubber, and says the original's signer does not vouch for it", async () => {
    const bundle = await exported(bob);
    const bobKey = await publicKeyOf(bob, "bob");
    const aliceKey = await publicKeyOf(alice, "alice");
    const out = join(cli.work, "scrubbed.tar");
    const r = await alice("scrub", bundle, "-o", out);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      r.stdout.includes(
        `signed with your key ${aliceKey.fingerprint}: a scrubbed copy is a new document; the original's signer, ${bobKey.fingerprint}, does not vouch for it`,
      ),
      r.stdout,
    );
    assert.equal((await alice("verify", out, "--key", aliceKey.fingerprint)).code, 0);
    assert.equal((await alice("verify", out, "--key", bobKey.fingerprint)).code, 6);
  });
});
