import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** True when a system command runs (`zstd`, `tar`). */
export function hasCommand(name: string): boolean {
  return spawnSync(name, ["--version"], { stdio: "ignore" }).status === 0;
}

/** A fresh temp dir and its cleanup. */
export function tempDir(prefix = "hx-recorder-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Makes a FIFO (named pipe) at `path` with the `mkfifo` command: a file whose reading blocks until a writer comes, which never will. */
export function makeFifo(path: string): void {
  const made = spawnSync("mkfifo", [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${String(made.stderr)}`);
}
