import { Command, Option } from "commander";
import type { CommandSpec } from "../command-spec.js";
import { formatBytes } from "../output/format.js";
import { escapeJsonControls, terminalSafe } from "../output/terminal-safe.js";
import { writeFileAtomically } from "@harnessx/artifacts";
import { checkWritable } from "../output/write-file.js";
import { openTarget } from "../store/target.js";

const FORMATS = ["otlp", "chrome"] as const;

/** `trace convert <run|bundle> --to otlp|chrome [-o FILE]`, through the exporters' converters. */
export const convertCommand: CommandSpec = {
  define: () =>
    new Command("convert")
      .description("convert a run to OTLP JSON Lines (Jaeger import, OTel file exporter) or a Chrome/Perfetto trace")
      .argument("<run>", "run id (or unique prefix), run directory or bundle file")
      .addOption(new Option("--to <format>", "otlp or chrome").choices(FORMATS).makeOptionMandatory())
      .option("-o, --out <file>", "output file (default: stdout)")
      .option("--content", "include prompts, replies, tool arguments and results (as recorded, already redacted)")
      .option("--force", "replace the output file if it exists"),
  async run(ctx, [text], options) {
    const out = typeof options.out === "string" ? ctx.path(options.out) : undefined;
    if (out) await checkWritable(out, Boolean(options.force), String(options.out));
    await using recording = await openTarget(ctx, text);
    const progress = ctx.progress(`convert to ${String(options.to)}`, "events");
    progress.total(recording.summary.events);
    const { events } = await recording.traceEvents({ onEvent: () => progress.tick() });
    progress.stop();
    const convertOptions = { agent: { name: recording.run.agent, sessionId: recording.run.sessionId }, captureContent: Boolean(options.content) };
    // Loaded on demand: the OpenTelemetry and LangSmith libraries cost every other command startup time.
    const { toChromeTrace, toOtlpJsonLines } = await import("@harnessx/exporters/convert");
    const body = options.to === "otlp" ? toOtlpJsonLines(events, convertOptions) : JSON.stringify(toChromeTrace(events, convertOptions));
    if (!out) {
      const json = escapeJsonControls(body);
      ctx.io.stdout.write(json.endsWith("\n") ? json : `${json}\n`);
      return;
    }
    await writeFileAtomically(out, body.endsWith("\n") ? body : `${body}\n`);
    if (ctx.options.json) ctx.printJson({ path: out, format: options.to, runId: recording.run.runId, bytes: Buffer.byteLength(body) });
    else ctx.print(terminalSafe(`wrote ${out} (${options.to === "otlp" ? "OTLP JSON Lines" : "Chrome trace-event JSON"}, ${formatBytes(Buffer.byteLength(body))})`));
  },
};
