// What benches that build stores of sealed runs share (not a benchmark itself): the W3C ids the
// recorder writes for a run, and the floor of reading runs back (decompress + JSON.parse every line).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompress } from "@harnessx/artifacts";

const digestOf = (runId: string): string => createHash("sha256").update(runId).digest("hex");

/** A run's trace id as the recorder writes it (32 hex). */
export const traceIdOf = (runId: string): string => digestOf(runId).slice(0, 32);

/** A span id per (run, span number) (16 hex): number 0 is the run span. */
export const spanIdOf = (runId: string, n: number): string =>
  `${digestOf(runId).slice(0, 6)}${n.toString(16).padStart(10, "0")}`;

/**
 * The least any reader of these runs pays: every sealed segment decompressed and every line
 * JSON-parsed, in this process, one segment at a time. Returns the seconds and the events read.
 */
export async function decompressParseFloor(
  runDirs: readonly string[],
): Promise<{ seconds: number; events: number; bytes: number }> {
  const started = process.hrtime.bigint();
  let events = 0;
  let bytes = 0;
  for (const runDir of runDirs) {
    for (const name of readdirSync(join(runDir, "segments"))
      .filter((n) => n.endsWith(".zst"))
      .sort()) {
      const text = (await zstdDecompress(readFileSync(join(runDir, "segments", name)))).toString("utf8");
      bytes += text.length;
      for (const line of text.split("\n"))
        if (line) {
          JSON.parse(line);
          events++;
        }
    }
  }
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, events, bytes };
}
