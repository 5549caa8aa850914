import type { Permission, PermissionDecision } from "./decision.js";

export interface PermissionManagerOptions {
  /** Verdict for tools with no rule and no permission of their own. Default `"allow"`. */
  default?: Permission;
  /** Verdicts by tool name; they win over a tool's own `permission`. */
  rules?: Record<string, Permission>;
}

/** Decides `allow | ask | deny` per tool: rule by name, else the tool's own permission, else the default. */
export class PermissionManager {
  private readonly defaultPermission: Permission;
  private readonly rules: Map<string, Permission>;

  constructor(options: PermissionManagerOptions = {}) {
    this.defaultPermission = options.default ?? "allow";
    this.rules = new Map(Object.entries(options.rules ?? {}));
  }

  set(toolName: string, permission: Permission): void {
    this.rules.set(toolName, permission);
  }

  resolve(toolName: string, toolPermission?: Permission): PermissionDecision {
    const rule = this.rules.get(toolName);
    if (rule) return { decision: rule, source: "manager", reason: `rule for "${toolName}"` };
    if (toolPermission) return { decision: toolPermission, source: "tool", reason: `"${toolName}" is registered as ${toolPermission}` };
    return { decision: this.defaultPermission, source: "manager", reason: "default" };
  }
}
