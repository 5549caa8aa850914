import type { Permission, PermissionDecision } from "./decision.js";
import { strictest } from "./policy.js";

export interface PermissionManagerOptions {
  /** Verdict for tools without a rule. Default `"allow"`. */
  default?: Permission;
  /** Verdicts by tool name: the only way to grant a tool more than the default. */
  rules?: Record<string, Permission>;
}

/**
 * The user's authority over tools. A rule by name decides; otherwise the stricter of the
 * default and the tool's own declared permission does, so a tool (an extension's included)
 * can narrow what the user allowed but never widen it.
 */
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
    const byDefault: PermissionDecision = {
      decision: this.defaultPermission,
      source: "manager",
      reason: toolPermission && toolPermission !== this.defaultPermission ? `default ${this.defaultPermission} (the tool's own "${toolPermission}" cannot widen it; add a rule for "${toolName}")` : "default",
    };
    if (!toolPermission) return byDefault;
    return strictest(byDefault, { decision: toolPermission, source: "tool", reason: `"${toolName}" is registered as ${toolPermission}` });
  }
}
