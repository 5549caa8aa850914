/** Where a durable run stood when it committed: the `phase` of each journal entry and of its `CHECKPOINT`. */
export type DurablePhase =
  | "run_start"
  | "snapshot"
  | "model_reply"
  | "tool_started"
  | "tool_outcome"
  | "approval_wait"
  | "approval"
  | "run_end";
