import { HarnessError } from "@harnessx/core";

/** Base of every refusal to read a bundle; `code` says which check failed. */
export class BundleError extends HarnessError {
  constructor(
    code: string,
    /** The bundle file that was refused, as given to the reader. */
    readonly bundlePath: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, `incident bundle ${bundlePath}: ${message}`, options);
  }
}

/** A member's bytes differ from the size or sha256 the manifest or SHA256SUMS records. */
export class BundleChecksumError extends BundleError {
  constructor(
    bundlePath: string,
    /** Path of the member that failed verification. */
    readonly member: string,
    detail: string,
  ) {
    super(
      "bundle_checksum_mismatch",
      bundlePath,
      `member "${member}" fails verification: ${detail} (corrupt or tampered)`,
    );
  }
}

/** The file ends early or a listed member is missing. */
export class BundleTruncatedError extends BundleError {
  constructor(bundlePath: string, detail: string, options?: { cause?: unknown }) {
    super("bundle_truncated", bundlePath, `truncated or incomplete: ${detail}`, options);
  }
}

/** A member path escapes the bundle folder (`../`, absolute) or is not a regular file. */
export class BundleUnsafePathError extends BundleError {
  constructor(
    bundlePath: string,
    /** The refused member path, as written in the tar. */
    readonly member: string,
    detail: string,
  ) {
    super("bundle_unsafe_path", bundlePath, `refused member "${member}": ${detail}`);
  }
}

/** The manifest names a format version this reader does not know. */
export class BundleVersionError extends BundleError {
  constructor(
    bundlePath: string,
    /** The `version` the manifest names (whatever value it holds). */
    readonly version: unknown,
    /** The versions this reader can read. */
    readonly supported: readonly number[],
  ) {
    super(
      "bundle_unsupported_version",
      bundlePath,
      `format version ${JSON.stringify(version)} is not supported (this reader knows ${supported.join(", ")}); upgrade @harnessx/recorder`,
    );
  }
}

/** Not a harnessx incident bundle at all (no manifest first, wrong format name, unreadable tar). */
export class BundleFormatError extends BundleError {
  constructor(bundlePath: string, detail: string, options?: { cause?: unknown }) {
    super("bundle_format", bundlePath, detail, options);
  }
}

/** A member's content is not what the format says: run.json or manifest.json of the wrong shape, an event line that is not an event, members that contradict each other. */
export class BundleContentError extends BundleError {
  constructor(
    bundlePath: string,
    /** Path of the member whose content is invalid. */
    readonly member: string,
    detail: string,
  ) {
    super("bundle_invalid_content", bundlePath, `member "${member}" is not valid: ${detail}`);
  }
}

/**
 * A member would take more bytes than the reader allows (its declared size, or the reader's
 * limits): a compression bomb, a size that lies, or a bundle too large to read.
 * `what` completes the sentence: "could decompress to", "is stored as", "brings the bundle to".
 */
export class BundleTooLargeError extends BundleError {
  constructor(
    bundlePath: string,
    /** Path of the member that is too large. */
    readonly member: string,
    /** Bytes it would take (decompressed, stored, or the bundle's running total, per `what`). */
    readonly bytes: number,
    /** Bytes the reader allows. */
    readonly limit: number,
    what: string,
    /** Why it is refused; default: a compression bomb, or a size that lies. */
    why = "refused (a compression bomb, or a size that lies)",
  ) {
    const n = (value: number) => value.toLocaleString("en-US");
    super(
      "bundle_too_large",
      bundlePath,
      `member "${member}" ${what} ${n(bytes)} bytes, more than the ${n(limit)} allowed; ${why}`,
    );
  }
}

/**
 * The manifest's signature does not verify against the public key it names: the manifest (and
 * with it a member's checksum, a linked run's bundle) changed after it was signed, or its key was
 * swapped; or a linked run's bundle is signed by another key than its parent's.
 */
export class BundleSignatureError extends BundleError {
  constructor(
    bundlePath: string,
    /** The member whose signature failed (`manifest.json`, or the linked run's `linked/<run>.tar`). */
    readonly member: string,
    detail: string,
  ) {
    super("bundle_signature_invalid", bundlePath, `member "${member}" fails its signature check: ${detail}`);
  }
}

/** The bundle is intact, but not signed by a key the reader requires: unsigned, or signed by another key. */
export class BundleSignerError extends BundleError {
  constructor(
    bundlePath: string,
    /** The fingerprint of the key that signed it; null when it is unsigned. */
    readonly signer: string | null,
    /** The fingerprints the reader accepts. */
    readonly required: readonly string[],
  ) {
    const wanted =
      required.length === 0
        ? "no key (none was given)"
        : required.length === 1
          ? required[0]
          : `one of ${required.join(", ")}`;
    super(
      "bundle_untrusted_signer",
      bundlePath,
      signer
        ? `signed by ${signer}, not by the key required (${wanted})`
        : `unsigned (anyone could have written or changed it), and a signature by ${wanted} is required`,
    );
  }
}
