import { Command } from "commander";
import { fingerprintOf } from "@harnessx/recorder";
import type { CommandSpec } from "../command-spec.js";
import { usageError } from "../errors.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { writeFileAtomically } from "@harnessx/artifacts";
import { checkWritable } from "../output/write-file.js";
import { loadScrubRules } from "../scrub/rules.js";
import { scrubRun } from "../scrub/scrub-run.js";
import { openTarget } from "../store/target.js";
import { signedWithLine, userSigningKey } from "../signing/user-keys.js";

/** `trace scrub <bundle> -o OUT [--rules FILE] [--mapping FILE]`: a new bundle with consistent pseudonyms. */
export const scrubCommand: CommandSpec<[run: string]> = {
  define: () =>
    new Command("scrub")
      .description(
        "write a new bundle with values replaced by consistent pseudonyms (<email-1>); the original is untouched",
      )
      .argument("<bundle>", "incident bundle file (or a run id / run directory)")
      .requiredOption("-o, --out <file>", "the scrubbed bundle to write")
      .option(
        "--rules <file>",
        "JSON rules { keys, patterns: [{ name, regex, flags?, check? }], kinds, replaceDefaults? }",
      )
      .option("--mapping <file>", "also write pseudonym -> original value to this local file (keep it private)")
      .option("--force", "replace the output files if they exist"),
  async run(ctx, [text], options) {
    const out = ctx.path(String(options.out));
    const mappingFile = typeof options.mapping === "string" ? ctx.path(options.mapping) : undefined;
    const source = ctx.path(text);
    if (out === source) throw usageError("the output must be a new file: scrub never changes the original bundle");
    if (mappingFile && (mappingFile === out || mappingFile === source))
      throw usageError("the mapping file must be separate from the bundles");
    const rules = loadScrubRules(typeof options.rules === "string" ? ctx.path(options.rules) : undefined);
    await checkWritable(out, Boolean(options.force), String(options.out));
    if (mappingFile) await checkWritable(mappingFile, Boolean(options.force), String(options.mapping));
    await using recording = await openTarget(ctx, text);
    const progress = ctx.progress("scrub", "events");
    progress.total(recording.summary.events);
    const reason = `scrubbed copy of ${recording.bundle ? `a bundle (${recording.bundle.trigger.reason})` : "a recorded run"}`;
    const { key, created } = await userSigningKey(ctx);
    const outcome = await scrubRun(recording, rules, out, reason, key, () => progress.tick()).finally(() =>
      progress.stop(),
    );
    // The scrubbed copy is a new document: the original's signer vouches for the original only.
    const original = recording.bundle?.signature
      ? fingerprintOf(Buffer.from(recording.bundle.signature.publicKey, "base64"))
      : null;
    if (mappingFile) await writeFileAtomically(mappingFile, `${JSON.stringify(outcome.mapping, null, 2)}\n`);
    const result = {
      path: outcome.bundle.path,
      runId: outcome.bundle.runId,
      events: outcome.bundle.events,
      artifacts: outcome.bundle.artifacts,
      artifactsRewritten: outcome.artifactsRewritten,
      replaced: outcome.stats.replaced,
      distinctValues: outcome.stats.distinct,
      mapping: mappingFile ?? null,
      signedBy: outcome.bundle.signedBy,
      keyCreated: created,
      originalSignedBy: original,
    };
    if (ctx.options.json) ctx.printJson(result);
    else {
      const total = Object.values(result.replaced).reduce((a, b) => a + b, 0);
      ctx.print(
        terminalSafe(
          `wrote ${result.path}: ${total} value(s) replaced (${result.distinctValues} distinct) in ${result.events} events`,
        ),
      );
      for (const [rule, count] of Object.entries(result.replaced).sort())
        ctx.print(terminalSafe(`  ${rule}: ${count}`));
      const others =
        original && original !== key.fingerprint ? `; the original's signer, ${original}, does not vouch for it` : "";
      ctx.print(
        terminalSafe(`${signedWithLine(key, created).trimStart()}: a scrubbed copy is a new document${others}`),
      );
      if (mappingFile)
        ctx.print(
          terminalSafe(`pseudonym mapping written to ${mappingFile} (keep it private; it is not in the bundle)`),
        );
    }
  },
};
