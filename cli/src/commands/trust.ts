import { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { harnessxHome, ProjectDigestError, TrustStoreError, trustFilePath } from "@harnessx/core";
import {
  planDiscovery,
  resourceFiles,
  TrustStore,
  type ExtensionCandidate,
  type TrustRecord,
} from "@harnessx/discovery";
import type { CommandContext } from "../context.js";
import type { CommandSpec } from "../command-spec.js";
import { invalidInput, notFound, usageError } from "../errors.js";
import type { Colors } from "../output/colors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import type { Column } from "../output/table.js";

type ListedStatus = "trusted" | "changed since trusted" | "untrusted" | "missing";
type ListedProject = TrustRecord & { status: ListedStatus };

const STATUS_LABEL = { trusted: "trusted", changed: "changed since trusted", untrusted: "untrusted" } as const;

function listColumns(c: Colors): Column<ListedProject>[] {
  return [
    { header: "DIR", value: (p) => p.dir },
    {
      header: "STATUS",
      value: (p) => p.status,
      format: (p) => (p.status === "trusted" ? c.green(p.status) : c.red(p.status)),
    },
    { header: "TRUSTED AT", value: (p) => p.trustedAt },
    { header: "DIGEST", value: (p) => p.digest, format: (p) => p.digest.slice(0, 12) },
  ];
}

const loadColumns: Column<ExtensionCandidate>[] = [
  { header: "LEVEL", value: (e) => e.level },
  { header: "FILE", value: (e) => e.path },
];

/** A project folder the user named: it must exist to be trusted. */
function existingFolder(dir: string): string {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) throw notFound(`no such folder: ${dir}`);
  if (!stat.isDirectory()) throw invalidInput(`not a folder: ${dir}`);
  return dir;
}

function trust(ctx: CommandContext, store: TrustStore, dir: string, home: string): void {
  const record = store.trust(existingFolder(dir));
  // File names only: printing what would load must not run it.
  const plan = planDiscovery({ cwd: record.dir, userDir: home, trustStore: store });
  const resources = plan.resourceRoots.flatMap((root) =>
    (["skill", "command", "prompt", "knowledge"] as const).flatMap((kind) => resourceFiles(root, kind)),
  );
  if (ctx.options.json) {
    ctx.printJson({ ...record, load: plan.load, resources, skipped: plan.skipped });
    return;
  }
  ctx.print(terminalSafe(`trusted ${record.dir}`));
  if (plan.load.length === 0) ctx.print("no extension files would load from it or from the user folder");
  else {
    ctx.print("would load now:");
    ctx.printRows(plan.load, loadColumns);
  }
  if (resources.length) {
    ctx.print("skills, commands and prompt templates that would load now:");
    for (const r of resources) ctx.print(terminalSafe(`  ${r.kind} ${r.name}  [${r.level}]  ${r.path}`));
  }
  for (const s of plan.skipped) ctx.print(terminalSafe(`skipped ${s.path}: ${s.reason}`));
}

function revoke(ctx: CommandContext, store: TrustStore, dir: string): void {
  const revoked = store.revoke(dir);
  // A gone project can still be revoked; a mistyped path that was never trusted is an error.
  if (!revoked && !existsSync(dir)) throw notFound(`no such folder, and no trust record for it: ${dir}`);
  if (ctx.options.json) ctx.printJson({ dir, revoked });
  else
    ctx.print(
      terminalSafe(
        revoked
          ? `revoked trust in ${dir}: its .harnessx/ extensions, skills, commands and prompts no longer load`
          : `${dir} was not trusted; nothing to revoke`,
      ),
    );
}

function list(ctx: CommandContext, store: TrustStore): void {
  const projects: ListedProject[] = store
    .list()
    .map((r) => ({ ...r, status: existsSync(r.dir) ? STATUS_LABEL[store.status(r.dir)] : "missing" }));
  if (projects.length === 0 && !ctx.options.json) ctx.note("no trusted projects");
  else ctx.printRows(projects, listColumns(ctx.colors), { keys: ["dir", "status", "trustedAt", "digest"] });
}

/** `trace trust`: let a project load its own extensions, revoke that, or list trusted projects. */
export const trustCommand: CommandSpec = {
  define: () =>
    new Command("trust")
      .description(
        "trust a project so its .harnessx/extensions/ load (printing what would load), revoke that, or list trusted projects",
      )
      .argument("[dir]", "project folder (default: the current folder)")
      .option("--revoke", "stop trusting the project")
      .option("--list", "list trusted projects with their status (trusted, changed since trusted, missing)")
      .addHelpText(
        "after",
        "\nTrust is kept in $HARNESSX_HOME/trust.json (default ~/.harnessx/trust.json) and pinned to the\nproject's extension files: editing or adding one makes the project untrusted until trusted again.",
      ),
  async run(ctx, args, options) {
    const [dirText] = args;
    if (options.list && (options.revoke || dirText !== undefined))
      throw usageError("--list takes no folder and no --revoke");
    const home = ctx.path(harnessxHome(ctx.io.env));
    const store = new TrustStore(trustFilePath(home));
    try {
      if (options.list) list(ctx, store);
      else if (options.revoke) revoke(ctx, store, ctx.path(dirText ?? "."));
      else trust(ctx, store, ctx.path(dirText ?? "."), home);
    } catch (err) {
      // The trust file and the digested folders are input the user can fix.
      if (err instanceof TrustStoreError || err instanceof ProjectDigestError) throw invalidInput(err.message, err);
      throw err;
    }
  },
};
