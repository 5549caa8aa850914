export type Permission = "allow" | "ask" | "deny";

/** The resolved verdict for one tool call, with who decided and why. */
export interface PermissionDecision {
  decision: Permission;
  /** Who decided: `manager`, `tool`, `policy:<id>@<extension>`, or `user` (a resume decision). */
  source: string;
  reason?: string;
}
