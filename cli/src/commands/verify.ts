import { Command, Option } from "commander";
import { existingSigningKey, openBundle, type BundleSigner } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import type { CommandContext } from "../context.js";
import { notFound, usageError } from "../errors.js";
import { classifyError } from "../store/errors.js";
import { formatCount } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { fingerprintOfRef, userKeysDir, userTrustedKeys, whoseKey } from "../signing/user-keys.js";
import { promises as fs } from "node:fs";

/** The fingerprints `--key` and `--trusted` accept; undefined when neither was given (any signer, or none). */
async function acceptedSigners(
  ctx: CommandContext,
  keys: readonly string[],
  trusted: boolean,
): Promise<string[] | undefined> {
  if (keys.length === 0 && !trusted) return undefined;
  const accepted = await Promise.all(keys.map((key) => fingerprintOfRef(ctx, key)));
  if (trusted) {
    const own = await existingSigningKey(userKeysDir(ctx));
    accepted.push(...(own ? [own.fingerprint] : []), ...(await userTrustedKeys(ctx).list()).map((k) => k.fingerprint));
    if (accepted.length === 0)
      throw usageError(
        "--trusted: you have no signing key and trust no key yet (trace keys --trust <public key file> --name <name>)",
      );
  }
  return [...new Set(accepted)];
}

/** What the signature proves, in words: no more than that. */
async function signerLine(ctx: CommandContext, signer: BundleSigner | null, required: boolean): Promise<string> {
  const c = ctx.colors;
  if (!signer)
    return `  ${c.yellow("unsigned")}: intact, but anyone could have written or changed it (checksums catch damage, not edits); require a signer with --key`;
  const { own, trustedAs } = await whoseKey(ctx, signer.fingerprint);
  const whose = own
    ? "your key"
    : trustedAs !== null
      ? `trusted as "${terminalSafe(trustedAs)}"`
      : "a key you do not trust: anyone can make one";
  return `  signed by ${signer.fingerprint} (${whose}${required ? ", as required" : ""}): every member (linked runs too) is as the holder of that key exported it`;
}

/** `trace verify <bundle> [--key K]... [--trusted]`: checksums, manifest and signature; exit 0 only when the bundle is whole (and signed as required). */
export const verifyCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("verify")
      .description(
        "check a bundle's manifest, every member's size and sha256, and its signature; exit 0 only when whole (6 when not signed by the key required)",
      )
      .argument("<bundle>", "incident bundle file")
      .addOption(
        new Option(
          "--key <key>",
          "require a signature by this key: a public key file (trace keys --public) or a fingerprint SHA256:...; repeat to accept several",
        ).argParser((value: string, previous: string[] = []) => [...previous, value]),
      )
      .option("--trusted", "require a signature by your own key or one of your trusted keys (trace keys --trust)"),
  async run(ctx, [text], options) {
    const path = ctx.path(text);
    const stat = await fs.stat(path).catch(() => undefined);
    if (!stat) throw notFound(`no such bundle: ${text}`);
    const keys = Array.isArray(options.key) ? (options.key as string[]) : [];
    const signedBy = await acceptedSigners(ctx, keys, options.trusted === true);
    // Opening a bundle verifies all of it; the events are checked a line at a time and not kept.
    const opened = await openBundle(path, { keepEvents: false, ...(signedBy ? { signedBy } : {}) }).catch(
      (err: unknown) => {
        const error = classifyError(err);
        if (ctx.options.json) ctx.printJson({ ok: false, path, code: error.code, error: error.message });
        throw error;
      },
    );
    const m = opened.manifest;
    const signer = opened.signer;
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
      signed: signer !== null,
      signer: signer
        ? { fingerprint: signer.fingerprint, publicKey: signer.publicKey, ...(await whoseKey(ctx, signer.fingerprint)) }
        : null,
      requiredKeys: signedBy ?? null,
    };
    if (ctx.options.json) ctx.printJson(report);
    else {
      ctx.print(
        `${ctx.colors.green("OK")} ${terminalSafe(text)}: ${m.format} v${m.version}, every member's size and sha256 match`,
      );
      ctx.print(await signerLine(ctx, signer, signedBy !== undefined));
      ctx.print(
        `  run ${terminalSafe(report.runId)} (${report.status}), ${formatCount(report.events)} events, ${report.artifacts} artifacts, ${report.members} members, reason "${terminalSafe(report.reason)}"`,
      );
      if (report.missingArtifacts)
        ctx.print(
          ctx.colors.yellow(
            `  ${report.missingArtifacts} artifact(s) were missing at export time (listed in the manifest)`,
          ),
        );
    }
  },
};
