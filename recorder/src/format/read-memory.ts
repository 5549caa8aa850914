import { getHeapStatistics } from "node:v8";
import { HarnessError } from "@harnessx/core";
import { jsonValues } from "./json-values.js";

/**
 * The JavaScript heap a reader of recordings may fill: 1 GiB unless `HARNESSX_READ_MEMORY` says
 * otherwise. JSON.parse makes text 15 to 35 times larger when it is dense (numbers, empty objects):
 * a 20 KB bundle of such lines, each under the line limit, would otherwise take the process to
 * gigabytes and then kill it. Honest runs this large are rare; the variable lets them be read.
 */
export const DEFAULT_READ_MEMORY_BYTES = 1024 * 1024 * 1024;
/** The environment variable that raises (or lowers) `DEFAULT_READ_MEMORY_BYTES`: a size such as `4GB` or `1.5GiB`. */
export const READ_MEMORY_ENV = "HARNESSX_READ_MEMORY";

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** `HARNESSX_READ_MEMORY` in bytes (a size: `4GB`, `1.5GiB`, `800MB`), else `DEFAULT_READ_MEMORY_BYTES`. */
export function readMemoryLimit(env: NodeJS.ProcessEnv = process.env): number {
  const asked = env[READ_MEMORY_ENV]?.trim();
  if (!asked) return DEFAULT_READ_MEMORY_BYTES;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)$/i.exec(asked);
  if (!match)
    throw new HarnessError(
      "read_memory_invalid",
      `${READ_MEMORY_ENV} must be a size such as 4GB or 1.5GiB, got ${JSON.stringify(asked)}`,
    );
  return Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
}

/** A reader filled more of the JavaScript heap than `HARNESSX_READ_MEMORY` allows (a run too large to hold, or a recording made to expand when parsed). */
export class ReadMemoryError extends HarnessError {
  constructor(
    /** Bytes of heap in use (or that decoding the next text would bring it to) when the reader stopped. */
    readonly used: number,
    /** The limit, in bytes. */
    readonly limit: number,
  ) {
    const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString("en-US")} MiB`;
    super(
      "read_memory_limit",
      `reading the recording would take ${mb(used)} of memory, more than the ${mb(limit)} a reader holds (${READ_MEMORY_ENV}=4GB raises it): a run too large to read here, or one crafted to expand when parsed`,
    );
  }
}

let limit: number | undefined;

/** Throws `ReadMemoryError` when the heap holds more than the reader's limit: called as events and payloads are parsed. */
export function checkReadMemory(): void {
  limit ??= readMemoryLimit();
  const used = getHeapStatistics().used_heap_size;
  if (used > limit) throw new ReadMemoryError(used, limit);
}

/** What JSON.parse makes of one value at most (an object or array, a boxed number, and its slot), for the estimate below. */
const HEAP_PER_VALUE = 64;

/**
 * Refuses (`ReadMemoryError`) JSON text whose decoding would not fit the reader's limit, before
 * decoding it: its values counted (`jsonValues`, stopping once they cannot fit) at
 * `HEAP_PER_VALUE` each, and two bytes a byte for its text. For payloads stored aside, up to 256
 * MiB of JSON each.
 */
export function checkParseCost(bytes: Uint8Array): void {
  limit ??= readMemoryLimit();
  const used = getHeapStatistics().used_heap_size;
  const room = limit - used - 2 * bytes.byteLength;
  const values = room < 0 ? 0 : jsonValues(bytes, 0, bytes.byteLength, Math.floor(room / HEAP_PER_VALUE));
  if (room < 0 || values * HEAP_PER_VALUE > room)
    throw new ReadMemoryError(used + 2 * bytes.byteLength + values * HEAP_PER_VALUE, limit);
}
