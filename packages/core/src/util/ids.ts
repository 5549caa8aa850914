import { randomHex } from "./random-hex.js";

/** A sortable id: time prefix then randomness, e.g. `run_01j9…`. */
export function newId(prefix: string): string {
  const time = Date.now().toString(36).padStart(9, "0");
  return `${prefix}_${time}${randomHex(6)}`;
}
