// `trace` run as a user runs it: its own process, timed, with its peak memory (not a benchmark itself).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../cli/dist/bin.js", import.meta.url));
/**
 * Reports the process's peak RSS on stderr as it exits: Linux's VmHWM, the high-water mark of
 * this program's own address space. `resourceUsage().maxRSS` is not reset by exec, so a child
 * of a large process would report its parent's size as its own.
 */
const PEAK_RSS = String.raw`
import { readFileSync } from "node:fs";
process.on("exit", () => {
  let kb = process.resourceUsage().maxRSS;
  try { kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]); } catch {}
  process.stderr.write("\nMAXRSS_KB " + kb + "\n");
});`;
const PRELOAD = `data:text/javascript,${encodeURIComponent(PEAK_RSS)}`;

export interface TraceRun {
  seconds: number;
  maxRssMb: number;
  output: string;
  code: number | null;
}

/** Runs `trace <args>`; throws unless it exits with one of `okCodes` (default 0). */
export function runTraceTimed(args: readonly string[], okCodes: readonly number[] = [0]): TraceRun {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", PRELOAD, BIN, ...args], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!okCodes.includes(r.status ?? -1)) throw new Error(`trace ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const rss = /MAXRSS_KB (\d+)/.exec(r.stderr);
  return { seconds, maxRssMb: rss ? Number(rss[1]) / 1024 : NaN, output: r.stdout, code: r.status };
}

/** The median of three runs of `trace <args>` (its time and peak memory). */
export function medianTraceRun(args: readonly string[], okCodes: readonly number[] = [0]): TraceRun {
  const runs = [0, 1, 2].map(() => runTraceTimed(args, okCodes)).sort((a, b) => a.seconds - b.seconds);
  return runs[1]!;
}
