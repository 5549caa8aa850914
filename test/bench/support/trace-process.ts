// `trace` run as a user runs it: its own process, timed, with its peak memory (not a benchmark itself).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../cli/dist/bin.js", import.meta.url));
/** Reports the process's peak RSS on stderr as it exits. */
const PRELOAD = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write('\\nMAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'));")}`;

export interface TraceRun {
  seconds: number;
  maxRssMb: number;
  output: string;
  code: number | null;
}

/** Runs `trace <args>`; throws unless it exits with one of `okCodes` (default 0). */
export function runTraceTimed(args: readonly string[], okCodes: readonly number[] = [0]): TraceRun {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", PRELOAD, BIN, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (!okCodes.includes(r.status ?? -1)) throw new Error(`trace ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  const rss = /MAXRSS_KB (\d+)/.exec(r.stderr);
  return { seconds, maxRssMb: rss ? Number(rss[1]) / 1024 : NaN, output: r.stdout, code: r.status };
}
