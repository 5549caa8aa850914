import { ExtensionContractError, PrivilegeWideningError } from "../errors.js";
import { TOOL_NAME } from "../tools/tool.js";
import { contribution, DECLARED_KINDS, type ExtensionContribution } from "./contribution.js";

/** What validation needs to know about the agent the value is for. */
export interface ContributionCheck {
  extension: string;
  maxFragmentChars: number;
  /** Who holds a tool name now: an extension's name, `null` for the user, undefined when free. */
  toolOwner(name: string): string | null | undefined;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const REGISTERED_KINDS = ["middleware", "observers", "commands", "templates", "messageTypes"] as const;
const KNOWN_KEYS = new Set<string>(["extension", ...DECLARED_KINDS, ...REGISTERED_KINDS]);
const PERMISSIONS = new Set(["allow", "ask", "deny"]);
const TIERS = new Set(["guidance", "context"]);

/**
 * Checks a declared value whole and returns a frozen copy to apply: every member's shape, id
 * and attribution, tiers, sizes and collisions. Nothing is applied when anything is wrong; the
 * error names the extension and the member.
 */
export function validateContribution(value: unknown, check: ContributionCheck): ExtensionContribution {
  const { extension } = check;
  const contract = (member: string, message: string) => new ExtensionContractError(extension, member, message);
  const widening = (member: string, message: string) => new PrivilegeWideningError(extension, member, message);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw contract(
      "contribution",
      `contribute() must return contribution(${JSON.stringify(extension)}, { tools, prompts, policies, lifecycle }), got ${describe(value)}`,
    );
  }
  const raw = value as Record<string, unknown>;
  if ("level" in raw || "source" in raw)
    throw widening(
      "contribution",
      "level and source are set by the host from where the extension was loaded; an extension cannot declare its own trust",
    );
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key))
      throw contract(
        "contribution",
        `unknown kind "${key}"; an extension contributes tools, prompts, policies and lifecycle hooks, nothing else`,
      );
  }
  if (raw.extension !== extension)
    throw widening(
      "contribution",
      `the value is attributed to ${JSON.stringify(raw.extension)}; an extension may only contribute under its own name`,
    );
  for (const key of REGISTERED_KINDS) {
    if (raw[key] !== undefined && (!Array.isArray(raw[key]) || raw[key].length > 0))
      throw contract("contribution", `${key} cannot be declared; register them in install(ctx)`);
  }
  for (const kind of DECLARED_KINDS) {
    if (raw[kind] !== undefined && !Array.isArray(raw[kind]))
      throw contract("contribution", `${kind} must be an array, got ${describe(raw[kind])}`);
    for (const member of (raw[kind] as unknown[] | undefined) ?? []) {
      if (member === null || typeof member !== "object")
        throw contract("contribution", `every member of ${kind} must be an object, got ${describe(member)}`);
    }
  }
  // A copy taken now: the extension cannot change a member between validation and use.
  const frozen = contribution(extension, {
    tools: raw.tools as never,
    prompts: raw.prompts as never,
    policies: raw.policies as never,
    lifecycle: raw.lifecycle as never,
  });
  const seen = new Set<string>();
  const unique = (member: string) => {
    if (seen.has(member)) throw contract(member, "declared twice");
    seen.add(member);
  };
  const attributed = (member: string, owner: unknown) => {
    if (owner !== extension)
      throw widening(
        member,
        `is attributed to ${JSON.stringify(owner)}; an extension may not contribute on another extension's behalf`,
      );
  };
  const id = (kind: string, value: unknown): string => {
    if (typeof value !== "string" || !ID.test(value))
      throw contract(`${kind}:${String(value)}`, "needs an id of 1-64 letters, digits, '_', '.', ':' or '-'");
    return `${kind}:${value}`;
  };

  for (const tool of frozen.tools) {
    const member = `tool:${String(tool.name)}`;
    attributed(member, tool.extension);
    if (typeof tool.name !== "string" || !TOOL_NAME.test(tool.name))
      throw contract(member, "a tool name is 1-64 letters, digits, '_' or '-'");
    if (
      typeof tool.execute !== "function" ||
      typeof tool.schema?.validate !== "function" ||
      tool.definition?.name !== tool.name
    ) {
      throw contract(member, "is not a tool; build it with tool({ name, description, inputSchema, execute })");
    }
    const schema = tool.definition.inputSchema as { type?: unknown } | undefined;
    if (!schema || typeof schema !== "object" || (schema.type !== undefined && schema.type !== "object"))
      throw contract(member, "its input schema must describe an object");
    if (tool.writes !== undefined && typeof tool.writes !== "function" && !Array.isArray(tool.writes))
      throw contract(member, "writes must be a list of paths or a function of the input returning one");
    if (tool.permission !== undefined && !PERMISSIONS.has(tool.permission))
      throw contract(member, `permission must be allow, ask or deny, got ${describe(tool.permission)}`);
    unique(member);
    const owner = check.toolOwner(tool.name);
    if (owner !== undefined)
      throw contract(
        member,
        `collides with the tool registered by ${owner === null ? "the application" : `extension "${owner}"`}`,
      );
  }
  for (const fragment of frozen.prompts) {
    const member = id("prompt", fragment.id);
    attributed(member, fragment.extension);
    if (fragment.tier === "operator")
      throw widening(member, "asks for the operator tier; only the agent's own system text is operator instruction");
    if (fragment.tier !== undefined && !TIERS.has(fragment.tier))
      throw contract(member, `tier must be "guidance" or "context", got ${describe(fragment.tier)}`);
    if (fragment.order !== undefined && !Number.isFinite(fragment.order))
      throw contract(member, "order must be a finite number");
    if (
      fragment.requiresTool !== undefined &&
      (typeof fragment.requiresTool !== "string" || !TOOL_NAME.test(fragment.requiresTool))
    )
      throw contract(member, "requiresTool must be a tool name");
    if (typeof fragment.text === "string") {
      if (fragment.text.length > check.maxFragmentChars)
        throw contract(
          member,
          `is ${fragment.text.length} characters; the limit is ${check.maxFragmentChars} (maxPromptFragmentChars)`,
        );
    } else if (typeof fragment.text !== "function")
      throw contract(member, "text must be a string or a function returning one");
    unique(member);
  }
  for (const policy of frozen.policies) {
    const member = id("policy", policy.id);
    attributed(member, policy.extension);
    if (typeof policy.decide !== "function") throw contract(member, "needs a decide(request) function");
    if (
      policy.actions !== undefined &&
      (!Array.isArray(policy.actions) || policy.actions.some((a) => typeof a !== "string"))
    )
      throw contract(member, "actions must be an array of tool names");
    if (policy.timeoutMs !== undefined && !(Number.isFinite(policy.timeoutMs) && policy.timeoutMs > 0))
      throw contract(member, "timeoutMs must be a positive number");
    unique(member);
  }
  for (const hook of frozen.lifecycle) {
    const member = id("lifecycle", hook.id);
    attributed(member, hook.extension);
    if (hook.phase !== "install" && hook.phase !== "close")
      throw contract(
        member,
        `phase must be "install" or "close", got ${describe(hook.phase)}${hook.phase === "teardown" ? ' (renamed "close")' : ""}`,
      );
    if (typeof hook.run !== "function") throw contract(member, "needs a run() function");
    unique(member);
  }
  return frozen;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object")
    return typeof (value as { then?: unknown }).then === "function" ? "a promise" : "an object";
  return typeof value === "string" ? JSON.stringify(value) : typeof value;
}
