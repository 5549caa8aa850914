import { contentBound, MAX_DECOMPRESSED_BYTES, ZstdLimitError, ZSTD_MAX_BLOCK_BYTES, zstdDecompressWithin } from "@harnessx/artifacts";
import { BundleChecksumError, BundleTooLargeError } from "./errors.js";

/** How much a bundle reader takes. A bundle comes from elsewhere: its sizes are claims, not facts. */
export interface BundleLimits {
  /** Bytes of one member, stored or decompressed. Default 256 MiB. */
  maxMemberBytes: number;
  /** Bytes of all members together, stored, and again decompressed. Default 1 GiB. */
  maxTotalBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = { maxMemberBytes: MAX_DECOMPRESSED_BYTES, maxTotalBytes: 4 * MAX_DECOMPRESSED_BYTES };

/**
 * Decompresses a bundle's zstd members within the limits: each member within its declared
 * `contentBytes` (when the manifest has it) and `maxMemberBytes`, all of them together within
 * `maxTotalBytes`. Every refusal is typed and names the member; nothing is inflated before the
 * frame's headers show it fits.
 */
export class MemberInflater {
  private used = 0;

  constructor(private readonly bundlePath: string, private readonly limits: BundleLimits) {}

  /** Refuses a member whose headers allow more than it may take, without decoding it. */
  check(member: string, frame: Uint8Array, declared: number | undefined): void {
    const limit = this.limitOf(declared);
    let bound: number;
    try {
      bound = contentBound(frame).bytes;
    } catch (error) {
      throw new BundleChecksumError(this.bundlePath, member, `does not decompress (${(error as Error).message})`);
    }
    if (bound > limit) throw new BundleTooLargeError(this.bundlePath, member, bound, limit, "could decompress to");
  }

  /** The member's content, decoded within its limit and counted against the total. */
  async inflate(member: string, frame: Uint8Array, declared: number | undefined): Promise<Buffer> {
    const limit = Math.min(this.limitOf(declared), this.limits.maxTotalBytes - this.used);
    const content = await zstdDecompressWithin(frame, limit).catch((error: unknown) => {
      if (error instanceof ZstdLimitError) throw new BundleTooLargeError(this.bundlePath, member, error.bytes, error.limit, "could decompress to");
      throw new BundleChecksumError(this.bundlePath, member, `does not decompress (${(error as Error).message})`);
    });
    if (declared !== undefined && content.byteLength !== declared) {
      throw new BundleChecksumError(this.bundlePath, member, `decompresses to ${content.byteLength} bytes, the manifest says ${declared}`);
    }
    this.used += content.byteLength;
    return content;
  }

  // A frame's bound exceeds its content by at most its last block, so the declared size gets that slack.
  private limitOf(declared: number | undefined): number {
    return Math.min(declared === undefined ? Number.POSITIVE_INFINITY : declared + ZSTD_MAX_BLOCK_BYTES, this.limits.maxMemberBytes);
  }
}
