export type Permission = "allow" | "ask" | "deny";

/** The resolved verdict for one tool call, with who decided and why. */
export interface PermissionDecision {
  decision: Permission;
  /** `manager`, `tool`, `policy:<id>`, `user` (a resume decision). */
  source: string;
  reason?: string;
}
