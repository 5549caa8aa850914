import { Command } from "commander";
import { openBundle } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { notFound } from "../errors.js";
import { classifyError } from "../store/errors.js";
import { formatCount } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { promises as fs } from "node:fs";

/** `trace verify <bundle>`: checksums and manifest; exit 0 only when the bundle is whole. */
export const verifyCommand: CommandSpec = {
  define: () => new Command("verify").description("check a bundle's manifest and every member's size and sha256; exit 0 only when whole").argument("<bundle>", "incident bundle file"),
  async run(ctx, [text]) {
    const path = ctx.path(text);
    const stat = await fs.stat(path).catch(() => undefined);
    if (!stat) throw notFound(`no such bundle: ${text}`);
    // Opening a bundle verifies all of it; the events are checked a line at a time and not kept.
    const opened = await openBundle(path, { keepEvents: false }).catch((err: unknown) => {
      const error = classifyError(err);
      if (ctx.options.json) ctx.printJson({ ok: false, path, code: error.code, error: error.message });
      throw error;
    });
    const m = opened.manifest;
    const report = {
      ok: true,
      path,
      format: m.format,
      version: m.version,
      runId: m.run.runId,
      status: m.run.status,
      createdAt: m.createdAt,
      reason: m.trigger.reason,
      members: m.members.length + 2,
      events: opened.summary.events,
      artifacts: m.members.filter((member) => member.path.startsWith("artifacts/")).length,
      missingArtifacts: m.missingArtifacts.length,
      dropped: m.dropped.events,
    };
    if (ctx.options.json) ctx.printJson(report);
    else {
      ctx.print(`${ctx.colors.green("OK")} ${terminalSafe(text)}: ${m.format} v${m.version}, every member's size and sha256 match`);
      ctx.print(`  run ${terminalSafe(report.runId)} (${report.status}), ${formatCount(report.events)} events, ${report.artifacts} artifacts, ${report.members} members, reason "${terminalSafe(report.reason)}"`);
      if (report.missingArtifacts) ctx.print(ctx.colors.yellow(`  ${report.missingArtifacts} artifact(s) were missing at export time (listed in the manifest)`));
    }
  },
};
