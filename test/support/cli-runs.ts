// A store of three recorded runs for the CLI's end-to-end tests that read runs: the support
// run (three tool calls, one failing), a failed run and a busy run (a spilled result, a retry).
import { after, before } from "node:test";
import {
  cliWorkspace,
  recordBusyRun,
  recordFailedRun,
  recordSupportRun,
  type CliWorkspace,
} from "@harnessx/cli/test-support";

/** The ids of the three runs, filled in before the calling file's tests run. */
export interface ThreeRuns {
  ok: string;
  failed: string;
  busy: string;
}

/**
 * The calling file's CLI workspace, whose store gets the three runs (in the order support, failed,
 * busy) before its tests; the workspace is removed after them.
 */
export function cliWithThreeRuns(): { cli: CliWorkspace; ids: ThreeRuns } {
  const cli = cliWorkspace();
  const ids: ThreeRuns = { ok: "", failed: "", busy: "" };
  before(async () => {
    ids.ok = (await recordSupportRun(cli.store)).runId;
    ids.failed = (await recordFailedRun(cli.store)).runId;
    ids.busy = (await recordBusyRun(cli.store)).runId;
  });
  after(() => cli.cleanup());
  return { cli, ids };
}

/** A command's `--json` output, parsed. */
export const json = <T>(text: string): T => JSON.parse(text) as T;
