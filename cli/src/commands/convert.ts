import { Command, Option } from "commander";
import { SpanStream, type MappedSpan } from "@harnessx/core/tracing";
import type { CommandSpec } from "../command-spec.js";
import { formatBytes } from "../output/format.js";
import { escapeJsonControls, terminalSafe } from "../output/terminal-safe.js";
import { writeFileAtomically } from "@harnessx/artifacts";
import { checkWritable } from "../output/write-file.js";
import { openTarget } from "../store/target.js";
import { loadConverters } from "./load-exporters.js";

const FORMATS = ["otlp", "chrome"] as const;

/** `trace convert <run|bundle> --to otlp|chrome [-o FILE]`, through the exporters' converters. */
export const convertCommand: CommandSpec<[run: string]> = {
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
    const convertOptions = {
      agent: { name: recording.run.agent, sessionId: recording.run.sessionId },
      captureContent: Boolean(options.content),
      keepDetail: false,
    };
    // Events are mapped as they are read: a long run's spans are held, never its events with their payloads.
    const spans: MappedSpan[] = [];
    const stream = new SpanStream(convertOptions, (span, order) => {
      spans[order] = span;
    });
    for await (const event of recording.eachTraceEvent({ onEvent: () => progress.tick() })) stream.push(event);
    stream.end();
    progress.stop();
    // Loaded on demand: the OpenTelemetry and LangSmith libraries cost every other command startup time.
    const { spansToChromeTrace, spansToOtlpJsonLines } = await loadConverters("trace convert");
    const body = options.to === "otlp" ? spansToOtlpJsonLines(spans) : JSON.stringify(spansToChromeTrace(spans));
    if (!out) {
      const json = escapeJsonControls(body);
      ctx.io.stdout.write(json.endsWith("\n") ? json : `${json}\n`);
      return;
    }
    await writeFileAtomically(out, body.endsWith("\n") ? body : `${body}\n`);
    if (ctx.options.json)
      ctx.printJson({ path: out, format: options.to, runId: recording.run.runId, bytes: Buffer.byteLength(body) });
    else
      ctx.print(
        terminalSafe(
          `wrote ${out} (${options.to === "otlp" ? "OTLP JSON Lines" : "Chrome trace-event JSON"}, ${formatBytes(Buffer.byteLength(body))})`,
        ),
      );
  },
};
