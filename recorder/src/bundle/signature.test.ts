// What a bundle's signature covers, byte for byte (another implementation must be able to check
// it), and how checkSignature refuses a key or a manifest it cannot check.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { BundleSignatureError, SigningKey, type BundleManifest } from "../index.js";
import { checkSignature, signManifest } from "./signature.js";

const PATH = "hand-made.tar";
const manifest = () =>
  ({
    version: 1,
    format: "harnessx.incident",
    members: [
      { path: "b", bytes: 2 },
      { path: "a", bytes: 1 },
    ],
    run: { z: null, a: [1, "x"] },
  }) as unknown as BundleManifest;
const refused = (message: RegExp) => (e: unknown) =>
  e instanceof BundleSignatureError && e.member === "manifest.json" && message.test(e.message);

describe("signManifest", () => {
  test("signs a context line, then the manifest in canonical JSON (keys sorted at every level, arrays in order), its signature's value left out", () => {
    const signed: Buffer[] = [];
    const sign = (bytes: Buffer): Buffer => {
      signed.push(bytes);
      return Buffer.from("sig");
    };
    const key = { publicKey: "PK", sign };
    const result = signManifest(manifest(), key);
    assert.equal(
      signed[0]!.toString(),
      'harnessx.incident/manifest\n{"format":"harnessx.incident","members":[{"bytes":2,"path":"b"},{"bytes":1,"path":"a"}],"run":{"a":[1,"x"],"z":null},"signature":{"algorithm":"ed25519","publicKey":"PK"},"version":1}',
    );
    assert.deepEqual(result.signature, {
      algorithm: "ed25519",
      publicKey: "PK",
      value: Buffer.from("sig").toString("base64"),
    });
  });
});

describe("checkSignature", () => {
  const key = SigningKey.generate();
  test("an unsigned manifest has no signer; a signed one names its key", () => {
    assert.equal(checkSignature(PATH, manifest()), null);
    assert.deepEqual(checkSignature(PATH, signManifest(manifest(), key)), {
      fingerprint: key.fingerprint,
      publicKey: key.publicKey,
    });
  });
  test("a public key that is not 32 bytes is no Ed25519 key", () => {
    const signed = signManifest(manifest(), key);
    signed.signature!.publicKey = Buffer.alloc(5).toString("base64");
    assert.throws(
      () => checkSignature(PATH, signed),
      refused(/fails its signature check: its signature names a public key that is not an Ed25519 key$/),
    );
  });
  test("a manifest changed after signing names the key whose signature no longer matches", () => {
    const signed = signManifest(manifest(), key);
    signed.version = 2;
    assert.throws(
      () => checkSignature(PATH, signed),
      refused(
        new RegExp(
          `: the signature by ${key.fingerprint.replace(/[+/]/g, "\\$&")} does not match it: changed after it was signed \\(tampered\\), or its key swapped$`,
        ),
      ),
    );
  });
  test("a manifest nested too deep to be written canonically is refused, not a crash", () => {
    const signed = signManifest(manifest(), key);
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    Object.assign(signed, { extra: deep });
    assert.throws(
      () => checkSignature(PATH, signed),
      refused(/: it cannot be checked \(Maximum call stack size exceeded\)$/),
    );
  });
});
