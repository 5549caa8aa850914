import { HarnessError } from "../errors.js";
import type { RunLoop } from "./run-loop.js";
import type { RunResult } from "./run-types.js";

/** One turn at a time: the agent's running turn, the run waiting for approval, and whether the agent is closed. */
export class TurnGate {
  private active: Promise<RunResult> | undefined;
  private waiting: RunLoop | undefined;
  private closed = false;

  /** True while a turn runs. */
  get busy(): boolean {
    return this.active !== undefined;
  }

  /** Starts a new run (or rebuilds one): refused while a turn runs or a run waits for approval. */
  begin(work: () => Promise<{ loop: RunLoop; run: Promise<RunResult> }>): Promise<RunResult> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    if (this.waiting) {
      return Promise.reject(
        new HarnessError(
          "awaiting_approval",
          `run ${this.waiting.runId} is waiting for approval; call resume() with a decision for each pending call first`,
        ),
      );
    }
    let loop: RunLoop | undefined;
    const run = work().then((started) => {
      loop = started.loop;
      return started.run;
    });
    return this.track(() => loop, run);
  }

  /** Continues the run that waits for approval. */
  continueWaiting(resume: (loop: RunLoop) => Promise<RunResult>): Promise<RunResult> {
    const refused = this.refusal();
    if (refused) return Promise.reject(refused);
    const loop = this.waiting;
    if (!loop) return Promise.reject(new HarnessError("not_awaiting_approval", "there is no run waiting for approval"));
    const resumed = resume(loop);
    this.waiting = undefined;
    return this.track(
      () => loop,
      resumed.catch((err) => {
        this.waiting = loop;
        throw err;
      }),
    );
  }

  /** Closes the gate and waits for the running turn, if any. */
  async close(): Promise<boolean> {
    if (this.closed) return false;
    this.closed = true;
    await this.active?.catch(() => {});
    return true;
  }

  private refusal(): HarnessError | undefined {
    if (this.closed) return new HarnessError("agent_closed", "this agent is closed");
    if (this.active)
      return new HarnessError(
        "agent_busy",
        "this agent is already running a turn; await it first (one turn at a time)",
      );
    return undefined;
  }

  private track(loop: () => RunLoop | undefined, run: Promise<RunResult>): Promise<RunResult> {
    const tracked = run.then((result) => {
      if (result.status === "awaiting_approval") this.waiting = loop();
      return result;
    });
    this.active = tracked;
    const clear = () => {
      this.active = undefined;
    };
    tracked.then(clear, clear);
    return tracked;
  }
}
