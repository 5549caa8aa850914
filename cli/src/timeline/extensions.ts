import type { ExtensionSummary } from "@harnessx/core/extension";
import { terminalSafe } from "../output/terminal-safe.js";

const KINDS = [
  "tools",
  "prompts",
  "policies",
  "lifecycle",
  "middleware",
  "observers",
  "commands",
  "templates",
  "messageTypes",
] as const;

/**
 * One line per extension a run was recorded with: its name (and version, when it declares one),
 * its trust level, the file it came from and what it contributed, so an incident reader sees who
 * could have blocked or changed what, and which release of it.
 */
export function describeExtensions(extensions: readonly ExtensionSummary[]): string[] {
  return extensions.map((e) => {
    const parts = KINDS.filter((k) => e[k]?.length).map((k) => `${k} ${e[k].join(", ")}`);
    return terminalSafe(
      [e.version ? `${e.name}@${e.version}` : e.name, `[${e.level}]`, e.source, parts.join("; ")]
        .filter(Boolean)
        .join("  "),
    );
  });
}
