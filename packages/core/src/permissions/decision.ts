/** What may happen to a tool call: run it, wait for the user's approval, or refuse it. */
export type Permission = "allow" | "ask" | "deny";

/** The resolved verdict for one tool call, with who decided and why. */
export interface PermissionDecision {
  /** The verdict. */
  decision: Permission;
  /**
   * Who decided: `manager`, `tool`, `policy:<id>@<extension>`, `user` (a resume decision), or in a
   * subagent's run `parent:<who>` (the run that called it, whose permissions it may only narrow).
   */
  source: string;
  /** Why, in words for the model and traces; absent when the decider gave none. */
  reason?: string;
}
