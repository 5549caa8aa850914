import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { zstdDecompress } from "@harnessx/artifacts";

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
        if (name.endsWith(".zst")) out.push({ path: `${path} (decompressed)`, text: (await zstdDecompress(raw)).toString("utf8") });
      }
    }
  };
  await walk(root);
  return out;
}
