import {
  contentBound,
  type ContentBound,
  MAX_DECOMPRESSED_BYTES,
  ZstdLimitError,
  ZSTD_MAX_BLOCK_BYTES,
  zstdDecompressWithin,
} from "@harnessx/artifacts";
import { BundleChecksumError, BundleTooLargeError } from "./errors.js";

/** How much a bundle reader takes. A bundle comes from elsewhere: its sizes are claims, not facts. */
export interface BundleLimits {
  /** Bytes of one member, stored or decompressed. Default 256 MiB. */
  maxMemberBytes: number;
  /** Bytes of all members together, stored, and again decompressed. Default 1 GiB. */
  maxTotalBytes: number;
}

/** The limits `openBundle` applies unless told otherwise: 256 MiB per member, 1 GiB in all. */
export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  maxMemberBytes: MAX_DECOMPRESSED_BYTES,
  maxTotalBytes: 4 * MAX_DECOMPRESSED_BYTES,
};

/**
 * Decompresses a bundle's zstd members within the limits: each member within its declared
 * `contentBytes` (when the manifest has it) and `maxMemberBytes`, all of them together within
 * `maxTotalBytes`. Every refusal is typed and names the member; nothing is inflated before the
 * frame's headers show it fits.
 */
export class MemberInflater {
  private used = 0;

  constructor(
    private readonly bundlePath: string,
    private readonly limits: BundleLimits,
  ) {}

  /** Refuses a member whose headers allow more than it may take, without decoding it. */
  check(member: string, frame: Uint8Array, declared: number | undefined): void {
    const bound = this.boundOf(member, frame);
    const limit = this.limitOf(declared, bound.frames);
    if (bound.bytes > limit)
      throw new BundleTooLargeError(this.bundlePath, member, bound.bytes, limit, "could decompress to");
  }

  /** The member's content, decoded within its limit and counted against the total. */
  async inflate(member: string, frame: Uint8Array, declared: number | undefined): Promise<Buffer> {
    const limit = Math.min(
      this.limitOf(declared, this.boundOf(member, frame).frames),
      this.limits.maxTotalBytes - this.used,
    );
    const content = await zstdDecompressWithin(frame, limit).catch((error: unknown) => {
      if (error instanceof ZstdLimitError)
        throw new BundleTooLargeError(this.bundlePath, member, error.bytes, error.limit, "could decompress to");
      throw new BundleChecksumError(this.bundlePath, member, `does not decompress (${(error as Error).message})`);
    });
    if (declared !== undefined && content.byteLength !== declared) {
      throw new BundleChecksumError(
        this.bundlePath,
        member,
        `decompresses to ${content.byteLength} bytes, the manifest says ${declared}`,
      );
    }
    this.used += content.byteLength;
    return content;
  }

  private boundOf(member: string, frame: Uint8Array): ContentBound {
    try {
      return contentBound(frame);
    } catch (error) {
      throw new BundleChecksumError(this.bundlePath, member, `does not decompress (${(error as Error).message})`);
    }
  }

  // A frame's bound exceeds its content by at most its last block, so the declared size gets that
  // slack once per frame (the events member is one frame per recorded segment, concatenated).
  // The member's ceiling holds whatever the frame count, and the output must equal the declared size.
  private limitOf(declared: number | undefined, frames: number): number {
    return Math.min(
      declared === undefined ? Number.POSITIVE_INFINITY : declared + frames * ZSTD_MAX_BLOCK_BYTES,
      this.limits.maxMemberBytes,
    );
  }
}
