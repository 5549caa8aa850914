import { RUN_STATUSES } from "@harnessx/recorder";
import { notFound } from "../errors.js";
import { listRuns } from "./runs.js";

/**
 * Names for runs that need no id, so a command copied from the docs works as written: `last` is
 * the run that started last in the store, `last-<status>` (`last-failed`, `last-completed`,
 * `last-crashed`, ...) the one of that status that started last.
 */
const REF = new RegExp(`^last(?:-(${RUN_STATUSES.join("|")}))?$`);

/** A parsed run ref: the status it asks for, if any. */
export interface RunRef {
  status?: string;
}

/** The ref `text` is, or undefined when it is not one (then it is an id, a prefix or a path). */
export function parseRunRef(text: string): RunRef | undefined {
  const match = REF.exec(text);
  if (!match) return undefined;
  return match[1] ? { status: match[1] } : {};
}

/** The directory of the run a ref names in `storeDir`; not found (exit 3) when the store has no such run. */
export async function runDirOfRef(storeDir: string, ref: RunRef, text: string): Promise<string> {
  // The newest run that matches: the catalog is read only as far as it.
  const { runs } = await listRuns(storeDir, { limit: 1, where: (run) => !ref.status || run.status === ref.status });
  const newest = runs[0];
  if (!newest)
    throw notFound(
      `no ${ref.status ? `${ref.status} ` : ""}run in ${storeDir} for ${JSON.stringify(text)} (trace ls lists the runs)`,
    );
  return newest.dir;
}
