import { HarnessError } from "../errors.js";

/** Why a run could not be resumed from its durable journal. */
export type ResumeProblem =
  /** The agent has no `durable` store to read journals from. */
  | "durable_off"
  /** The id is not a run id (`run_` and letters, digits, `_` or `-`): refused before any file is touched. */
  | "bad_run_id"
  /** The store holds no journal for the run, or none with a committed start. */
  | "not_journaled"
  /** The run ended (completed, failed or cancelled): there is nothing to resume. */
  | "already_ended"
  /** A journal line other than a torn last one does not read as a journal entry. */
  | "journal_corrupt"
  /** The journal is another run's (its `run_start` names another run id): a copy under the wrong name. */
  | "journal_foreign"
  /** A journal line is longer than the store's reader takes (`FileDurableStore`'s `maxLineBytes`), or the whole journal than `read` takes. */
  | "journal_too_large"
  /** The journal's path is not a regular file (a FIFO, a device, a symbolic link): refused without reading it. */
  | "journal_not_a_file";

/** `agent.resume(runId)` could not rebuild the run; `problem` says why, the message what to do. */
export class ResumeError extends HarnessError {
  constructor(
    /** Why the run could not be resumed. */
    readonly problem: ResumeProblem,
    /** The run asked for. */
    readonly runId: string,
    message: string,
  ) {
    super(`resume_${problem}`, message);
  }
}
