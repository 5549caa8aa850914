import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompress } from "@harnessx/artifacts";
import { openRecording } from "../read/open-recording.js";

/** Every byte under a store, with zstd files (segments, artifacts) decompressed. */
export async function allStoreBytes(root: string): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) await walk(path);
      else {
        const raw = readFileSync(path);
        out.push({ path, text: raw.toString("latin1") });
        if (name.endsWith(".zst"))
          out.push({ path: `${path} (decompressed)`, text: (await zstdDecompress(raw)).toString("utf8") });
      }
    }
  };
  await walk(root);
  return out;
}

/**
 * Checks that redaction happened at the source: `secret` is in no byte under the store, and the
 * run's first `tool_call_start` lists the redacted argument (`input.<argument>`).
 */
export async function assertToolArgumentRedacted(
  storeDir: string,
  runId: string,
  secret: string,
  argument: string,
): Promise<void> {
  for (const file of await allStoreBytes(storeDir))
    assert.ok(!file.text.includes(secret), `the secret is in ${file.path}`);
  const recording = await openRecording({ storeDir, runId });
  try {
    const start = (await recording.readEvents()).find((e) => e.kind === "tool_call_start");
    assert.ok(
      start?.redacted?.some((path) => path.endsWith(`input.${argument}`)),
      `redacted paths: ${start?.redacted}`,
    );
  } finally {
    await recording.close();
  }
}
