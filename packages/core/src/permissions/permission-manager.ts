import { ConfigError } from "../errors.js";
import type { Permission, PermissionDecision } from "./decision.js";
import { strictest } from "./policy.js";

/** The starting rules of a `PermissionManager`. */
export interface PermissionManagerOptions {
  /** Verdict for tools without a rule. Default `"allow"`. */
  default?: Permission;
  /**
   * Verdicts by tool name: the only way to grant a tool more than the default. A name with `*`
   * is a pattern (`mcp__github__*`); an exact name wins over patterns, a longer pattern over a
   * shorter. A pattern grants only the tools of the owner it names (`"notes:note_*"`: extension
   * `notes`); without one, the application's own tools, or for `mcp__...` patterns the MCP
   * extension's (`mcp`). On anyone else's tool a matching pattern can only narrow.
   */
  rules?: Record<string, Permission>;
}

/** The MCP extension's name: `mcp__<server>__<tool>` names are its servers' tools, and no one else's. */
export const MCP_EXTENSION = "mcp";

/** Tool names only the MCP extension may register (`mcp__<server>__<tool>`). */
export const MCP_TOOL_PREFIX = "mcp__";

interface PatternRule {
  text: string;
  pattern: RegExp;
  permission: Permission;
  /** Whose tools the rule grants: an extension's name, or undefined for the application's. */
  owner: string | undefined;
}

/**
 * The user's authority over tools. A rule by name decides; otherwise the stricter of the
 * default and the tool's own declared permission does, so a tool (an extension's included)
 * can narrow what the user allowed but never widen it. A pattern rule is bound to an owner, so an
 * extension cannot squat a family of names another owner was granted.
 */
export class PermissionManager {
  private readonly defaultPermission: Permission;
  private readonly rules = new Map<string, Permission>();
  private patterns: PatternRule[] = [];

  constructor(options: PermissionManagerOptions = {}) {
    this.defaultPermission = options.default ?? "allow";
    for (const [name, permission] of Object.entries(options.rules ?? {})) this.set(name, permission);
  }

  /**
   * Sets the rule for a tool name or a `*` pattern, optionally `owner:`-qualified, replacing an
   * earlier rule for the same text; applies from the next check on.
   * @throws ConfigError for an empty owner or name.
   */
  set(rule: string, permission: Permission): void {
    const colon = rule.indexOf(":");
    const name = colon < 0 ? rule : rule.slice(colon + 1);
    const owner = colon < 0 ? undefined : rule.slice(0, colon);
    if (name === "" || owner === "")
      throw new ConfigError(
        `permission rule ${JSON.stringify(rule)} needs a tool name or pattern${owner === "" ? " after an extension name" : ""}`,
      );
    if (!name.includes("*")) {
      this.rules.set(rule, permission);
      return;
    }
    const pattern = new RegExp(
      `^${name
        .split("*")
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    const bound = owner ?? (name.startsWith(MCP_TOOL_PREFIX) ? MCP_EXTENSION : undefined);
    this.patterns = [
      ...this.patterns.filter((p) => p.text !== rule),
      { text: rule, pattern, permission, owner: bound },
    ].sort((a, b) => patternLength(b) - patternLength(a));
  }

  /**
   * The manager's verdict for a tool: its rule by exact name (the owner-qualified one first), else
   * the longest matching pattern of its owner, else the stricter of the default and `toolPermission`
   * (the tool's own declared permission). Patterns of other owners that match may only narrow it.
   * @param owner - The extension that registered the tool; undefined for the application's own.
   */
  resolve(toolName: string, toolPermission?: Permission, owner?: string): PermissionDecision {
    const exactKey = owner !== undefined && this.rules.has(`${owner}:${toolName}`) ? `${owner}:${toolName}` : toolName;
    const rule = this.rules.get(exactKey);
    if (rule) return { decision: rule, source: "manager", reason: `rule for "${exactKey}"` };
    let granted: PermissionDecision | undefined;
    let narrowed: PermissionDecision | undefined;
    for (const p of this.patterns) {
      if (!p.pattern.test(toolName)) continue;
      if (p.owner === owner) {
        granted ??= { decision: p.permission, source: "manager", reason: `rule for "${p.text}"` };
      } else {
        const who = owner === undefined ? "the application" : `extension "${owner}"`;
        const verdict: PermissionDecision = {
          decision: p.permission,
          source: "manager",
          reason: `rule for "${p.text}", which grants only ${p.owner === undefined ? "the application's" : `extension "${p.owner}"'s`} tools, not ${who}'s`,
        };
        narrowed = narrowed ? strictest(narrowed, verdict) : verdict;
      }
    }
    const own = granted ?? this.byDefault(toolName, toolPermission);
    if (!narrowed) return own;
    const decided = strictest(own, narrowed);
    // A squatter's tool gets the default: the reason says which grant it did not get.
    return decided === own && !granted ? { ...own, reason: `${own.reason}; ${narrowed.reason}` } : decided;
  }

  private byDefault(toolName: string, toolPermission: Permission | undefined): PermissionDecision {
    const byDefault: PermissionDecision = {
      decision: this.defaultPermission,
      source: "manager",
      reason:
        toolPermission && toolPermission !== this.defaultPermission
          ? `default ${this.defaultPermission} (the tool's own "${toolPermission}" cannot widen it; add a rule for "${toolName}")`
          : "default",
    };
    if (!toolPermission) return byDefault;
    return strictest(byDefault, {
      decision: toolPermission,
      source: "tool",
      reason: `"${toolName}" is registered as ${toolPermission}`,
    });
  }
}

/** A pattern's length without its owner: `notes:a*` and `a*` are the same length of name. */
function patternLength(rule: PatternRule): number {
  return rule.owner === undefined || !rule.text.includes(":")
    ? rule.text.length
    : rule.text.length - rule.text.indexOf(":") - 1;
}
