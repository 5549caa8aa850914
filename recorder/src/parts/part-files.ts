import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { readRegularFile } from "@harnessx/core/extension";
import { MAX_METADATA_FILE_BYTES } from "../format/read-limits.js";
import { writeAtomically } from "../recording/seal.js";

/**
 * The tables of a compacted partition, in the order a compaction writes them: `runs` last, as
 * its file is what commits the others (a reader takes a compaction's files only once its `runs`
 * file exists).
 */
export const PART_TABLES = ["events", "spans", "artifacts", "runs"] as const;
/** One table of the compacted partitions. */
export type PartTable = (typeof PART_TABLES)[number];

/** `<store>/parts`: the compacted partitions, Hive style by the runs' start date. */
export const partsDirOf = (root: string): string => join(root, "parts");
/** The lock one compaction at a time holds. */
export const PARTS_LOCK_FILE = "compact.lock";

/** `YYYYMMDDTHHMMSSZ-<host>-<store id>-<random>`: one compaction's files share it; many stores' never collide. */
const STAMP = /^\d{8}T\d{6}Z-[A-Za-z0-9_.-]{1,64}-[0-9a-f]{8}-[0-9a-f]{8}$/;
const DATE_FOLDER = /^date=(\d{4}-\d{2}-\d{2})$/;

/** A new compaction's stamp. */
export function newStamp(now: number, storeId: string): string {
  const host =
    hostname()
      .replace(/[^A-Za-z0-9_.-]/g, "_")
      .slice(0, 64) || "host";
  const time = new Date(now)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${time}-${host}-${storeId}-${randomBytes(4).toString("hex")}`;
}

/** `<table>/date=<date>/<stamp>.parquet` under the parts folder. */
export const partPath = (root: string, table: PartTable, date: string, stamp: string): string =>
  join(partsDirOf(root), table, `date=${date}`, `${stamp}.parquet`);

/** A compacted partition's file, as found on disk. */
export interface PartFile {
  /** Its path. */
  path: string;
  /** The table it holds rows of. */
  table: PartTable;
  /** Its date partition (the UTC day its runs started). */
  date: string;
  /** The compaction that wrote it. */
  stamp: string;
}

/**
 * Every file of the parts folder whose name a compaction would write (regular files only: a FIFO
 * named like one would block a reader), committed or not; temporary files and folders are `stray`.
 */
export async function listPartFiles(root: string): Promise<{ files: PartFile[]; stray: string[] }> {
  const files: PartFile[] = [];
  const stray: string[] = [];
  // Real folders only, at every level: a link would have readers open files outside the store.
  const isFolder = async (path: string) => (await fs.lstat(path).catch(() => undefined))?.isDirectory() === true;
  if (!(await isFolder(partsDirOf(root)))) return { files, stray };
  for (const table of PART_TABLES) {
    const tableDir = join(partsDirOf(root), table);
    if (!(await isFolder(tableDir))) continue;
    for (const entry of await fs.readdir(tableDir, { withFileTypes: true }).catch(() => [])) {
      const folder = entry.name;
      // A compaction's scratch folder (`.tmp-<stamp>`): a killed one leaves it behind.
      if (folder.startsWith(".tmp-")) stray.push(join(tableDir, folder));
      const date = DATE_FOLDER.exec(folder)?.[1];
      if (!date || !entry.isDirectory()) continue;
      const entries = await fs.readdir(join(tableDir, folder), { withFileTypes: true }).catch(() => []);
      for (const file of entries) {
        if (!file.isFile()) continue;
        const path = join(tableDir, folder, file.name);
        const stamp = file.name.endsWith(".parquet") ? file.name.slice(0, -".parquet".length) : undefined;
        if (stamp !== undefined && STAMP.test(stamp)) files.push({ path, table, date, stamp });
        else if (file.name.includes(".tmp-")) stray.push(path);
      }
    }
  }
  return { files, stray };
}

/** The committed files: those of compactions whose `runs` file exists for the same date. */
export function committedParts(files: readonly PartFile[]): PartFile[] {
  const committed = new Set(files.filter((f) => f.table === "runs").map((f) => `${f.date}/${f.stamp}`));
  return files.filter((f) => committed.has(`${f.date}/${f.stamp}`));
}

/** The store's id (8 hex digits, made once, in `parts/store-id`): in every file name, so two stores' files never collide. */
export async function storeIdOf(root: string): Promise<string> {
  const path = join(partsDirOf(root), "store-id");
  const read = async () =>
    (await readRegularFile(path, { maxBytes: MAX_METADATA_FILE_BYTES }).catch(() => Buffer.alloc(0)))
      .toString("utf8")
      .trim();
  const known = await read();
  if (/^[0-9a-f]{8}$/.test(known)) return known;
  await fs.mkdir(partsDirOf(root), { recursive: true });
  // `wx`: of two processes making it at once, one writes it and both read that one.
  await fs.writeFile(path, `${randomBytes(4).toString("hex")}\n`, { flag: "wx" }).catch(() => undefined);
  const made = await read();
  if (/^[0-9a-f]{8}$/.test(made)) return made;
  // A damaged file: the id only keeps names apart, so a new one does.
  const fresh = randomBytes(4).toString("hex");
  await writeAtomically(path, `${fresh}\n`);
  return fresh;
}
