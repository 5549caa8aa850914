import type { Colors } from "../output/colors.js";
import { formatDuration } from "../output/format.js";
import { terminalSafe } from "../output/terminal-safe.js";
import { isFailureEvent, type RecordedEvent } from "@harnessx/recorder";
import { describeEvent, durationOf } from "./describe.js";

/** What the line of a `resumed` recovery adds: how long the run was without a process. */
function resumedAfter(gapMs: number): string {
  return `resumed after ${formatDuration(gapMs)} without a process`;
}

/** One timeline line: `#seq`, offset from the run's start, the kind indented by depth, what happened, how long it took (`gapMs`: see `ResumeGaps`). */
export function eventLine(c: Colors, event: RecordedEvent, depth: number, start: number, gapMs?: number): string {
  const error = isFailureEvent(event);
  const offset = `+${formatDuration(event.ts - start)}`.padStart(10);
  const name = terminalSafe(event.kind);
  const kind = error ? c.red(c.bold(name)) : event.spanId ? c.cyan(name) : name;
  const detail = [describeEvent(event), gapMs !== undefined ? resumedAfter(gapMs) : ""].filter(Boolean).join("; ");
  const duration = durationOf(event);
  return `${c.dim(`#${String(event.seq).padEnd(5)}`)} ${c.dim(offset)} ${"  ".repeat(depth)}${error ? c.red("✗ ") : ""}${kind}${detail ? `  ${error ? c.red(detail) : detail}` : ""}${duration !== undefined ? c.dim(`  ${formatDuration(duration)}`) : ""}`;
}

/** The same event as `--json` gives it (payloads are added by the caller when asked). */
export function eventJson(event: RecordedEvent, depth: number, start: number, gapMs?: number): Record<string, unknown> {
  return {
    seq: event.seq,
    ts: new Date(event.ts).toISOString(),
    offsetMs: event.ts - start,
    depth,
    kind: event.kind,
    spanId: event.spanId,
    parentSpanId: event.parentSpanId,
    summary: describeEvent(event),
    error: isFailureEvent(event),
    ...(gapMs !== undefined ? { resumedAfterMs: gapMs } : {}),
    attrs: event.attrs,
    ...(event.redacted?.length ? { redacted: event.redacted } : {}),
  };
}
