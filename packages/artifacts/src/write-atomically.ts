import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Writes a whole file or nothing: the data goes to a temporary file (in `tmpDir`, default the
 * target's folder; it must be on the same filesystem) that is then renamed into place.
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  options: { tmpDir?: string } = {},
): Promise<void> {
  const tmp = join(
    options.tmpDir ?? dirname(path),
    `.${basename(path)}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`,
  );
  try {
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}
