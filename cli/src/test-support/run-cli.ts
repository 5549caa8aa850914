import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./recording.js";

/** The built CLI, as users run it. */
export const TRACE_BIN = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The child's peak resident set size in bytes, with `measureMemory`. */
  peakRssBytes?: number;
}

export interface RunTraceOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Report the child's peak RSS (written by the child itself as it exits). */
  measureMemory?: boolean;
}

// Loaded into the child with --import: records the process's own peak RSS (kilobytes) as it exits.
// Linux's VmHWM is this program's own; maxRSS also counts the parent's memory at spawn (the
// high-water mark survives exec), which a test holding a big input would add to the child's.
const REPORT_PEAK_RSS = `data:text/javascript,import { readFileSync, writeFileSync } from "node:fs"; process.on("exit", () => { let kb = process.resourceUsage().maxRSS; try { kb = Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]); } catch {} writeFileSync(process.env.TRACE_PEAK_RSS_FILE, String(kb)); });`;

/** Runs `node cli/dist/bin.js ...args` as a child process (no TTY: no colours, no progress bars). */
export function runTrace(args: readonly string[], options: RunTraceOptions = {}): Promise<CliRun> {
  const rssFile = options.measureMemory
    ? join(tmpdir(), `trace-rss-${process.pid}-${randomBytes(4).toString("hex")}`)
    : undefined;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(rssFile ? ["--import", REPORT_PEAK_RSS] : []), TRACE_BIN, ...args], {
      cwd: options.cwd,
      env: {
        ...process.env,
        NO_COLOR: "",
        FORCE_COLOR: "0",
        ...options.env,
        ...(rssFile ? { TRACE_PEAK_RSS_FILE: rssFile } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (!rssFile) return resolve({ code, stdout, stderr });
      // A child killed before its exit handler ran (timeout, out of memory) reports nothing.
      const kilobytes = existsSync(rssFile) ? Number(readFileSync(rssFile, "utf8")) : Number.NaN;
      rmSync(rssFile, { force: true });
      resolve({ code, stdout, stderr, peakRssBytes: kilobytes * 1024 });
    });
  });
}

/** A temporary working directory for a CLI end-to-end test file, with a store in it and `trace` bound to both. */
export interface CliWorkspace {
  /** The temporary directory: the CLI's working directory. */
  readonly work: string;
  /** The recording store: `work/.harnessx` (created by whatever records into it). */
  readonly store: string;
  /** `trace --store <store> ...args`, run in `work`. */
  trace(...args: string[]): Promise<CliRun>;
  /** Removes `work` and everything in it; nothing if it was never created. */
  cleanup(): void;
}

/**
 * The workspace of a test file: `const cli = cliWorkspace();` at the top, `after(() => cli.cleanup());`.
 * The directory is made on first use (in `before()`), so declaring it writes nothing.
 */
export function cliWorkspace(prefix?: string): CliWorkspace {
  let temp: { dir: string; cleanup: () => void } | undefined;
  const dir = () => (temp ??= tempDir(prefix)).dir;
  return {
    get work() {
      return dir();
    },
    get store() {
      return join(dir(), ".harnessx");
    },
    trace: (...args) => runTrace(["--store", join(dir(), ".harnessx"), ...args], { cwd: dir() }),
    cleanup() {
      temp?.cleanup();
      temp = undefined;
    },
  };
}

/** Every file under `dir` with its sha256: compare two snapshots to prove nothing was written or changed. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
}
