import type { ExtensionContext, Redactor } from "@harnessx/core/extension";
import { exportIncident, type ExportIncidentRequest, type IncidentExport } from "../bundle/export-incident.js";
import { loadSigningKey, type SigningKey } from "../signing/signing-key.js";

/** The incident bundles a recorder writes into its store: asked for, or of each failed run (`autoExport: "on_failure"`). */
export class IncidentExports {
  /** Bundles written so far, oldest first. */
  readonly written: IncidentExport[] = [];

  constructor(private readonly dir: string) {}

  /** A bundle asked for (`FlightRecorderExtension.exportIncident`): `reason` defaults to `"manual"`, the policy to `redactor`. */
  async export(
    request: Omit<ExportIncidentRequest, "dir" | "reason"> & { reason?: string },
    redactor: Redactor | undefined,
  ): Promise<IncidentExport> {
    const result = await exportIncident({
      ...request,
      dir: this.dir,
      reason: request.reason ?? "manual",
      redactor: request.redactor ?? redactor,
    });
    this.written.push(result);
    return result;
  }

  /** The bundle of a run that failed, redacted with the agent's policy and signed when the user's key can be used (see `keyOrUnsigned`). */
  async exportFailed(runId: string, ctx: ExtensionContext | undefined): Promise<void> {
    this.written.push(
      await exportIncident({
        dir: this.dir,
        runId,
        reason: "on_failure",
        redactor: ctx?.redactor,
        signingKey: await keyOrUnsigned(ctx),
      }),
    );
  }
}

/**
 * The user's signing key for an automatic export, or false: a key that cannot be used (a file
 * others may read, a home folder that is read-only) must not cost the evidence, so the bundle
 * is written unsigned and the problem reported once per export as an ERROR event.
 */
async function keyOrUnsigned(ctx: ExtensionContext | undefined): Promise<SigningKey | false> {
  try {
    return (await loadSigningKey()).key;
  } catch (error) {
    ctx
      ?.reportError(error instanceof Error ? error : new Error(String(error)), { source: "recorder" })
      .catch(() => undefined);
    return false;
  }
}
