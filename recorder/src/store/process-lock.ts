import { closeSync, openSync, promises as fs, writeSync } from "node:fs";
import { readRegularFile } from "@harnessx/core/extension";
import { MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";
import { isProcessAlive } from "./live-process.js";

/**
 * Takes a lock file holding this process's pid (created exclusively), or returns the pid of the
 * live process holding it; a dead holder's lock is taken over. Remove the file to release it.
 */
export async function takeProcessLock(path: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await pidIn(path);
    if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) return holder;
    await fs.rm(path, { force: true });
  }
  return -1;
}

/** The pid a lock file holds, or undefined when it holds none (a holder killed mid-write). */
async function pidIn(path: string): Promise<number | undefined> {
  const text = await readRegularFile(path, { maxBytes: MAX_METADATA_FILE_BYTES }).then(
    (bytes) => bytes.toString("utf8"),
    () => "",
  );
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
