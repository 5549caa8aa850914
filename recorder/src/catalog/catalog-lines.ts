import { openRegularFile } from "@harnessx/core/extension";

/**
 * The longest catalog line a reader takes: 1 MiB. The recorder's are under a few kilobytes (a
 * run's fields, its error message cut to 64 KiB at most); a longer one is damage or a crafted
 * file, skipped unread.
 */
export const MAX_CATALOG_LINE_BYTES = 1024 * 1024;

/**
 * The longest snapshot header a reader takes: 64 MiB. It names every run folder of the snapshot
 * (about 26 bytes each): two million runs, far past what one store holds between compactions.
 */
export const MAX_CATALOG_HEADER_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 4 * 1024 * 1024;

/** What `catalogLines` found besides the lines it yielded. */
export interface LineCounts {
  /** Lines skipped unread for passing `MAX_CATALOG_LINE_BYTES`. */
  tooLong: number;
}

/**
 * The non-empty lines of a file, read in chunks so memory stays bounded by a chunk and one line
 * whatever the file holds. A line longer than `MAX_CATALOG_LINE_BYTES` (the first line:
 * `firstLineBytes`, for a snapshot's header) is skipped (counted in `counts`); a last line without its newline (a write in progress, or torn) is yielded as is, for
 * the parser to refuse.
 */
export async function* catalogLines(
  path: string,
  counts: LineCounts,
  firstLineBytes = MAX_CATALOG_LINE_BYTES,
): AsyncGenerator<string> {
  // Never a FIFO or a link: a store may come from anyone (a cloned repository, a shared disk).
  const file = await openRegularFile(path);
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let skipping = false;
    let limit = firstLineBytes;
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const newline = chunk.indexOf(0x0a, start);
        const end = newline === -1 || newline >= bytesRead ? bytesRead : newline;
        if (!skipping) {
          pending.push(Buffer.from(chunk.subarray(start, end)));
          pendingBytes += end - start;
          if (pendingBytes > limit) {
            counts.tooLong++;
            skipping = true;
            pending = [];
            pendingBytes = 0;
          }
        }
        if (end === bytesRead) break;
        if (!skipping && pendingBytes > 0) yield Buffer.concat(pending).toString("utf8");
        pending = [];
        pendingBytes = 0;
        skipping = false;
        limit = MAX_CATALOG_LINE_BYTES;
        start = end + 1;
      }
    }
    if (!skipping && pendingBytes > 0) yield Buffer.concat(pending).toString("utf8");
  } finally {
    await file.close();
  }
}
