import { contribution, defineExtension, type Extension } from "harnessx";

/** Shell commands no agent should run unasked, each with the reason given to the model. */
export const DANGEROUS_COMMANDS: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  {
    pattern: /\brm\s+(-[a-zA-Z]*[rR][a-zA-Z]*\s+-?[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*[rR]|-[a-zA-Z]*[rR][a-zA-Z]*f)/,
    why: "a recursive forced delete",
  },
  { pattern: /\b(curl|wget)\b[^|;]*\|\s*(sudo\s+)?(ba|z)?sh\b/, why: "piping a download into a shell" },
  { pattern: /\bmkfs(\.\w+)?\b|\bdd\b[^;]*\bof=\/dev\//, why: "writing to a disk device" },
  { pattern: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, why: "a fork bomb" },
  { pattern: /\bgit\s+push\b[^;]*(--force\b|\s-f\b)/, why: "a force push" },
  { pattern: /\bchmod\s+-R\s+0?777\b/, why: "making a tree world-writable" },
];

/**
 * Dangerous-command interception as an extension: a policy on the `bash` tool that denies a
 * command matching `DANGEROUS_COMMANDS` before it runs (at authorization and again at dispatch).
 * Anything it cannot read as a command is denied too: a guard fails closed.
 */
export function dangerousCommandGuard(tool = "bash"): Extension {
  return defineExtension({
    name: "command-guard",
    contribute: () =>
      contribution("command-guard", {
        policies: [
          {
            id: "no-dangerous-commands",
            actions: [tool],
            decide: ({ toolCall }) => {
              const command = toolCall.input.command;
              if (typeof command !== "string") return { decision: "deny", reason: "the command is not a string" };
              const hit = DANGEROUS_COMMANDS.find((d) => d.pattern.test(command));
              return hit ? { decision: "deny", reason: `blocked: ${hit.why}` } : "allow";
            },
          },
        ],
      }),
  });
}
