import type { ReportData, ReportLayout, ReportRun } from "./model.js";
import { packedText, type PackedPayloads } from "./payload-packer.js";

/** A placed span as the page gets it: `[name, kind, lane, offsetMs, durationMs, flags, error ("Class: message"), inputTokens, outputTokens]` (names and kinds by index; flags: 1 open, 2 error). */
export type IndexedSpan = [number, number, number, number, number, number, string | null, number | null, number | null];
/** An event as the page gets it: `[seq, offsetMs, span (index, -1 for none), kind (index)]`, then its one-line note when it has one. */
export type IndexedEvent = [number, number, number, number] | [number, number, number, number, string];

/**
 * What the page needs to draw itself, in a compact form (tables of names and kinds, spans and
 * events as tuples, spans referenced by position): a 100k-event run is then a few megabytes
 * before compression. Payloads are not in it: they stay packed until one is opened.
 */
export interface PageIndex {
  run: ReportRun;
  startTs: number;
  endTs: number;
  lanes: number;
  names: string[];
  kinds: string[];
  spans: IndexedSpan[];
  events: IndexedEvent[];
  eventsPerBlock: number;
  stringsPerBlock: number;
}

function interner(): { table: string[]; id: (text: string) => number } {
  const table: string[] = [];
  const ids = new Map<string, number>();
  return {
    table,
    id(text) {
      let id = ids.get(text);
      if (id === undefined) ids.set(text, (id = table.push(text) - 1));
      return id;
    },
  };
}

export function pageIndex(data: ReportData, layout: ReportLayout, packed: PackedPayloads): PageIndex {
  const names = interner();
  const kinds = interner();
  const spanAt = new Map<string, number>();
  const spans = layout.spans.map((s, i): IndexedSpan => {
    spanAt.set(s.spanId, i);
    return [
      names.id(s.name),
      kinds.id(s.kind),
      s.lane,
      s.offsetMs,
      s.durationMs,
      (s.open ? 1 : 0) | (s.error !== undefined ? 2 : 0),
      s.error === undefined ? null : s.errorClass ? `${s.errorClass}: ${s.error}` : s.error,
      s.inputTokens ?? null,
      s.outputTokens ?? null,
    ];
  });
  const events = data.events.map((e): IndexedEvent => {
    const at: IndexedEvent = [
      e.seq,
      e.ts - layout.startTs,
      e.spanId === undefined ? -1 : (spanAt.get(e.spanId) ?? -1),
      kinds.id(e.kind),
    ];
    return e.message === undefined ? at : [...at, e.message];
  });
  return {
    run: data.run,
    startTs: layout.startTs,
    endTs: layout.endTs,
    lanes: layout.lanes,
    names: names.table,
    kinds: kinds.table,
    spans,
    events,
    eventsPerBlock: packed.eventsPerBlock,
    stringsPerBlock: packed.stringsPerBlock,
  };
}

/** The index as the page embeds it: gzip, base64 (inflated by the browser's `DecompressionStream`). */
export function packedIndex(index: PageIndex): string {
  return packedText(JSON.stringify(index));
}
