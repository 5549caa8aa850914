import type { Permission, PermissionDecision } from "./decision.js";
import { strictest } from "./policy.js";

/** The starting rules of a `PermissionManager`. */
export interface PermissionManagerOptions {
  /** Verdict for tools without a rule. Default `"allow"`. */
  default?: Permission;
  /**
   * Verdicts by tool name: the only way to grant a tool more than the default. A name with `*`
   * is a pattern (`mcp__github__*`); an exact name wins over patterns, a longer pattern over a shorter.
   */
  rules?: Record<string, Permission>;
}

/**
 * The user's authority over tools. A rule by name decides; otherwise the stricter of the
 * default and the tool's own declared permission does, so a tool (an extension's included)
 * can narrow what the user allowed but never widen it.
 */
export class PermissionManager {
  private readonly defaultPermission: Permission;
  private readonly rules = new Map<string, Permission>();
  private patterns: Array<{ text: string; pattern: RegExp; permission: Permission }> = [];

  constructor(options: PermissionManagerOptions = {}) {
    this.defaultPermission = options.default ?? "allow";
    for (const [name, permission] of Object.entries(options.rules ?? {})) this.set(name, permission);
  }

  /** Sets the rule for a tool name or a `*` pattern, replacing an earlier rule for the same text; applies from the next check on. */
  set(toolName: string, permission: Permission): void {
    if (!toolName.includes("*")) {
      this.rules.set(toolName, permission);
      return;
    }
    const pattern = new RegExp(`^${toolName.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
    this.patterns = [...this.patterns.filter((p) => p.text !== toolName), { text: toolName, pattern, permission }].sort((a, b) => b.text.length - a.text.length);
  }

  /**
   * The manager's verdict for a tool: its rule by exact name, else the longest matching pattern, else
   * the stricter of the default and `toolPermission` (the tool's own declared permission).
   */
  resolve(toolName: string, toolPermission?: Permission): PermissionDecision {
    const rule = this.rules.get(toolName);
    if (rule) return { decision: rule, source: "manager", reason: `rule for "${toolName}"` };
    const matched = this.patterns.find((p) => p.pattern.test(toolName));
    if (matched) return { decision: matched.permission, source: "manager", reason: `rule for "${matched.text}"` };
    const byDefault: PermissionDecision = {
      decision: this.defaultPermission,
      source: "manager",
      reason: toolPermission && toolPermission !== this.defaultPermission ? `default ${this.defaultPermission} (the tool's own "${toolPermission}" cannot widen it; add a rule for "${toolName}")` : "default",
    };
    if (!toolPermission) return byDefault;
    return strictest(byDefault, { decision: toolPermission, source: "tool", reason: `"${toolName}" is registered as ${toolPermission}` });
  }
}
