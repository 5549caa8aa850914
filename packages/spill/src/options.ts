import { ConfigError } from "@harnessx/core";
import type { LockSettings } from "./sandbox-protocol.js";

/** The artifact store surface the spill needs (`ArtifactStore` of @harnessx/artifacts fits). */
export interface SpillStore {
  /** Where the store keeps its files, if on disk: hidden from what `read_result` tells the model. */
  readonly root?: string;
  /** `expectNew`: a hint that the content is large and probably not stored yet (a store may ignore it). */
  put(
    data: Uint8Array | string,
    options?: { expectNew?: boolean },
  ): Promise<{
    /** The content's id: hex sha256 of the stored bytes (UTF-8 for a string). */
    sha256: string;
    /** Size of the content, in bytes. */
    bytes: number;
  }>;
  /** The stored content for an id returned by `put`; rejects when it is missing or damaged. */
  get(sha256: string): Promise<Buffer>;
  /** True when content with this id is stored. */
  has(sha256: string): Promise<boolean>;
  /** Keeps the content alive on behalf of `holder` (the spill uses `"spill:<sessionId>"`); idempotent. */
  pin(sha256: string, holder: string): Promise<void>;
  /** Releases `holder`'s pin; a no-op when it held none. */
  unpin(sha256: string, holder: string): Promise<void>;
  /** Deletes the content when no holder pins it any more; resolves true when it was deleted. */
  deleteIfUnpinned(sha256: string): Promise<boolean>;
}

/**
 * How long spilled results stay: `"session"` releases them when the agent closes
 * (an artifact another holder pins, such as a recording, survives); a duration
 * (milliseconds, or a string like `"30m"`, `"12h"`, `"7d"`) keeps them across
 * restarts until they are that old.
 */
export type SpillRetention = "session" | number | `${number}${"s" | "m" | "h" | "d"}`;

/** Caps on what `read_result` returns and spends. */
export interface ReadResultLimits {
  /** Characters one `read_result` answer may hold. Default 12_000. */
  maxOutputChars?: number;
  /** Rows a `query` returns at most. Default 200. */
  maxRows?: number;
  /** Matches a `search` lists at most. Default 50. */
  maxMatches?: number;
  /** Time a `query` may run before it is interrupted. Default 5_000 ms. */
  queryTimeoutMs?: number;
  /** Time a regular-expression `search` may run. Default 2_000 ms. */
  searchTimeoutMs?: number;
  /**
   * Memory a query may use. Default "512MB". DuckDB's `memory_limit`; the query process is also
   * killed when it grows more than this plus 256 MB past its size once the table is loaded (DuckDB
   * does not count every allocation), and may swap at most twice this to its private directory.
   */
  queryMemoryLimit?: string;
}

/** Options of `ResultSpillExtension`; every field is optional. */
export interface ResultSpillOptions {
  /** Results larger than this many UTF-8 bytes are spilled. Default 32_000. */
  thresholdBytes?: number;
  /** Budget of the envelope's preview, in characters. Default 1_500. */
  previewBytes?: number;
  /** Where spilled results are stored. Default `new ArtifactStore(".harnessx")`. */
  store?: SpillStore;
  /** Default "24h": a saved session can be resumed in a new process within a day. */
  retention?: SpillRetention;
  /** Caps on `read_result`. */
  limits?: ReadResultLimits;
  /** Result tables kept loaded in DuckDB at once (least recently used close first). Default 4. */
  maxOpenTables?: number;
  /** Bytes of read views (pretty-printed JSON, text) cached in memory. Default 160_000_000. */
  viewCacheBytes?: number;
}

export interface ResolvedLimits {
  maxOutputChars: number;
  maxRows: number;
  maxMatches: number;
  queryTimeoutMs: number;
  searchTimeoutMs: number;
  queryMemoryLimit: string;
}

export function resolveLimits(limits: ReadResultLimits = {}): ResolvedLimits {
  return {
    maxOutputChars: positiveInt("limits.maxOutputChars", limits.maxOutputChars, 12_000),
    maxRows: positiveInt("limits.maxRows", limits.maxRows, 200),
    maxMatches: positiveInt("limits.maxMatches", limits.maxMatches, 50),
    queryTimeoutMs: positiveInt("limits.queryTimeoutMs", limits.queryTimeoutMs, 5_000),
    searchTimeoutMs: positiveInt("limits.searchTimeoutMs", limits.searchTimeoutMs, 2_000),
    queryMemoryLimit: memoryLimit(limits.queryMemoryLimit ?? "512MB"),
  };
}

export function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new ConfigError(`ResultSpillExtension: ${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return value;
}

const MEMORY = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|KiB|MiB|GiB)$/i;
const MEMORY_UNIT = { kb: 1e3, mb: 1e6, gb: 1e9, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30 } as const;

function memoryLimit(value: string): string {
  if (!MEMORY.test(value)) {
    throw new ConfigError(
      `ResultSpillExtension: limits.queryMemoryLimit must look like "512MB" or "1GB", got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** What the query process needs besides DuckDB's own limit: allocations DuckDB does not count. */
const PROCESS_HEADROOM_BYTES = 256 * 2 ** 20;

/** The query process's memory settings for `queryMemoryLimit` (validated by resolveLimits). */
export function lockSettings(limits: ResolvedLimits): LockSettings {
  const [, amount, unit] = MEMORY.exec(limits.queryMemoryLimit) as RegExpExecArray;
  const bytes = Number(amount) * MEMORY_UNIT[unit!.toLowerCase() as keyof typeof MEMORY_UNIT];
  return {
    memoryLimit: limits.queryMemoryLimit,
    maxTempSize: `${Math.ceil((2 * bytes) / 2 ** 20)}MiB`,
    growthLimitBytes: bytes + PROCESS_HEADROOM_BYTES,
  };
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `"session"`, or the retention in milliseconds. */
export function resolveRetention(value: SpillRetention | undefined): "session" | number {
  if (value === undefined) return UNIT_MS.h * 24;
  if (value === "session") return "session";
  if (typeof value === "number") {
    if (Number.isFinite(value) && value > 0) return value;
  } else {
    const m = /^(\d+(?:\.\d+)?)([smhd])$/.exec(value);
    if (m) return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  }
  throw new ConfigError(
    `ResultSpillExtension: retention must be "session", a positive number of milliseconds, or a duration like "12h" or "7d"; got ${JSON.stringify(value)}`,
  );
}
