import { randomFillSync } from "node:crypto";

/** Random bytes are drawn from the system this many at a time: ids are made per span and per call. */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` cryptographically random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString("hex", used, used + bytes);
  used += bytes;
  return hex;
}
