import type { Redactor } from "@harnessx/core/extension";
import type { RunManifest } from "../format/event.js";

/**
 * The value patterns a run's `run.json` says it was recorded with that `redactor` does not apply,
 * by name. They are compared as text (name and source) and never compiled: a store or a bundle
 * may come from anyone, and a pattern such as `(a+)+$` hangs whoever runs it on a long text.
 */
export function unappliedPatterns(run: Pick<RunManifest, "redaction">, redactor: Redactor): string[] {
  // run.json is input: its `redaction` may hold anything.
  const recorded = run.redaction as { patterns?: unknown } | "off" | undefined | null;
  if (typeof recorded !== "object" || recorded === null || !Array.isArray(recorded.patterns)) return [];
  const policy = redactor.describe();
  const applied = new Set(policy === "off" ? [] : policy.patterns.map((p) => `${p.name}\u0000${p.source}`));
  const names: string[] = [];
  for (const entry of recorded.patterns as unknown[]) {
    const { name, source } = (typeof entry === "object" && entry !== null ? entry : {}) as {
      name?: unknown;
      source?: unknown;
    };
    if (!applied.has(`${String(name)}\u0000${String(source)}`)) names.push(String(name));
  }
  return names;
}
