// The bundle errors' codes are what callers branch on, their messages what a user reads: each
// class keeps its code, names what failed and says what to do about it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  BundleChecksumError,
  BundleContentError,
  BundleError,
  BundleFormatError,
  BundleSignatureError,
  BundleSignerError,
  BundleTooLargeError,
  BundleTruncatedError,
  BundleUnsafePathError,
  BundleVersionError,
} from "../index.js";

const PATH = "/tmp/x.tar";
const prefix = `incident bundle ${PATH}: `;

describe("every bundle error has its own code and a message that names the bundle and the problem", () => {
  const cause = new Error("underlying");
  for (const [error, code, message] of [
    [
      new BundleChecksumError(PATH, "run.json", "sha256 differs"),
      "bundle_checksum_mismatch",
      'member "run.json" fails verification: sha256 differs (corrupt or tampered)',
    ],
    [new BundleTruncatedError(PATH, "cut", { cause }), "bundle_truncated", "truncated or incomplete: cut"],
    [new BundleUnsafePathError(PATH, "../x", "escapes"), "bundle_unsafe_path", 'refused member "../x": escapes'],
    [
      new BundleVersionError(PATH, "3", [1, 2]),
      "bundle_unsupported_version",
      'format version "3" is not supported (this reader knows 1, 2); upgrade @harnessx/recorder',
    ],
    [new BundleFormatError(PATH, "not a tar", { cause }), "bundle_format", "not a tar"],
    [
      new BundleContentError(PATH, "events.ndjson.zst", "line 3: bad"),
      "bundle_invalid_content",
      'member "events.ndjson.zst" is not valid: line 3: bad',
    ],
    [
      new BundleSignatureError(PATH, "manifest.json", "tampered"),
      "bundle_signature_invalid",
      'member "manifest.json" fails its signature check: tampered',
    ],
  ] as const) {
    test(`${error.name}: ${code}`, () => {
      assert.ok(error instanceof BundleError);
      assert.equal(error.code, code);
      assert.equal(error.bundlePath, PATH);
      assert.equal(error.message, prefix + message);
    });
  }
  test("the cause is kept where one is given", () => {
    assert.equal(new BundleTruncatedError(PATH, "cut", { cause }).cause, cause);
    assert.equal(new BundleFormatError(PATH, "x", { cause }).cause, cause);
  });
});

describe("BundleTooLargeError", () => {
  test("sizes are written with thousands separators; the default reason is a bomb or a lie", () => {
    const error = new BundleTooLargeError(
      PATH,
      "events.ndjson.zst",
      300 * 1024 * 1024,
      256 * 1024 * 1024,
      "could decompress to",
    );
    assert.equal(error.code, "bundle_too_large");
    assert.deepEqual([error.member, error.bytes, error.limit], ["events.ndjson.zst", 314_572_800, 268_435_456]);
    assert.equal(
      error.message,
      `${prefix}member "events.ndjson.zst" could decompress to 314,572,800 bytes, more than the 268,435,456 allowed; refused (a compression bomb, or a size that lies)`,
    );
  });
  test("a reason given replaces the default", () => {
    assert.match(
      new BundleTooLargeError(PATH, "run.json", 2, 1, "is stored as", "refused unread").message,
      /allowed; refused unread$/,
    );
  });
});

describe("BundleSignerError names the signer found and the key(s) required", () => {
  const A = "SHA256:aaa";
  const B = "SHA256:bbb";
  test("signed by another key than the one required", () => {
    const error = new BundleSignerError(PATH, B, [A]);
    assert.equal(error.code, "bundle_untrusted_signer");
    assert.equal(error.signer, B);
    assert.deepEqual(error.required, [A]);
    assert.equal(error.message, `${prefix}signed by ${B}, not by the key required (${A})`);
  });
  test("several keys accepted are listed", () => {
    assert.equal(
      new BundleSignerError(PATH, "SHA256:ccc", [A, B]).message,
      `${prefix}signed by SHA256:ccc, not by the key required (one of ${A}, ${B})`,
    );
  });
  test("unsigned, with no key or one key required", () => {
    assert.equal(
      new BundleSignerError(PATH, null, []).message,
      `${prefix}unsigned (anyone could have written or changed it), and a signature by no key (none was given) is required`,
    );
    assert.equal(
      new BundleSignerError(PATH, null, [A]).message,
      `${prefix}unsigned (anyone could have written or changed it), and a signature by ${A} is required`,
    );
  });
});
