import { HarnessError } from "@harnessx/core";
import { jsonValues } from "./json-values.js";

// What a reader of recordings takes at most, in one place. A store may come from a cloned
// repository and a bundle from anyone: every size in them is a claim. Each limit sits above
// anything the recorder itself writes, so only a damaged or crafted file meets it.

const MiB = 1024 * 1024;

/**
 * The longest event line (NDJSON) a reader takes: 16 MiB, DuckDB's own `maximum_object_size`
 * default, which the SQL readers are given explicitly. The recorder never writes a longer line:
 * a payload over `inlinePayloadBytes` (at most `MAX_INLINE_PAYLOAD_BYTES`) goes to the artifact
 * store, and attribute texts are cut (`MAX_ATTRIBUTE_CHARS`) before a line could reach it.
 */
export const MAX_EVENT_LINE_BYTES = 16 * MiB;

/** The largest `inlinePayloadBytes` the recorder accepts: with its attributes (at most 1 MiB of JSON) a line holds at most 2 MiB. */
export const MAX_INLINE_PAYLOAD_BYTES = MiB;

/**
 * The most JSON values (strings, objects, arrays, elements) a line over 1 MiB may hold, counted
 * before it is decoded (`jsonValues`): JSON.parse makes dense text (numbers, empty objects) 15 to
 * 35 times its size, so a 16 MiB line of `{},` would take half a gigabyte. The recorder's lines
 * (at most 2 MiB) hold about half this at the very most.
 */
export const MAX_EVENT_LINE_VALUES = 2 * MiB;

/** Lines shorter than this are not counted: they cannot hold `MAX_EVENT_LINE_VALUES` values. */
const COUNTED_LINE_BYTES = MiB;

/**
 * The longest text the recorder keeps in an event's attributes (an error message, a text a
 * message event carries): attributes are a summary, the payload holds the whole. With the
 * payload bound it keeps every line under `MAX_EVENT_LINE_BYTES`.
 */
export const MAX_ATTRIBUTE_CHARS = 64 * 1024;

/**
 * The largest `run.json` a reader takes: 16 MiB. The recorder's grows with the ids of the
 * artifacts a run references (about 70 bytes each): 16 MiB is some 200,000 of them, far past
 * the bundle and segment limits of any run that can still be read.
 */
export const MAX_RUN_MANIFEST_BYTES = 16 * MiB;

/**
 * The largest bundle `manifest.json` a reader takes: 32 MiB. The exporter writes one entry per
 * member (about 230 bytes, pretty-printed): a bundle at the reader's 100,000-member limit needs
 * about 23 MB.
 */
export const MAX_BUNDLE_MANIFEST_BYTES = 32 * MiB;

/** The largest `SHA256SUMS` a reader takes: one line (about 100 bytes) per member, 100,000 members in 10 MB. */
export const MAX_SUMS_BYTES = 16 * MiB;

/** The largest small metadata file a reader takes: a sealed segment's sidecar, the dataset marker, a run's lock (all well under a kilobyte). */
export const MAX_METADATA_FILE_BYTES = 64 * 1024;

/**
 * An event line longer than `MAX_EVENT_LINE_BYTES`: the recorder never writes one, so the file
 * holding it is damaged or crafted. Readers refuse the segment (`SegmentCorruptError`) or the
 * bundle (`BundleContentError`) that holds it, naming the line.
 */
export class EventLineTooLongError extends HarnessError {
  constructor(
    /** 1-based number of the line in the text read. */
    readonly line: number,
    /** Its length in bytes. */
    readonly bytes: number,
    /** For a line refused for its values: more than `MAX_EVENT_LINE_VALUES` were counted. */
    readonly values?: number,
  ) {
    const n = (value: number) => value.toLocaleString("en-US");
    super(
      "event_line_too_long",
      values === undefined
        ? `line ${line} is ${n(bytes)} bytes, longer than the ${n(MAX_EVENT_LINE_BYTES)} a reader takes (the recorder never writes a longer one): refused unread`
        : `line ${line} (${n(bytes)} bytes) holds more than the ${n(MAX_EVENT_LINE_VALUES)} JSON values a reader decodes in one line (the recorder never writes so many): refused undecoded`,
    );
  }
}

/** Refuses (`EventLineTooLongError`) the event line at `bytes[start, end)` when it is too long, or too dense to decode within bounded memory. */
export function checkEventLine(bytes: Uint8Array, start: number, end: number, line: number): void {
  const length = end - start;
  if (length > MAX_EVENT_LINE_BYTES) throw new EventLineTooLongError(line, length);
  if (length > COUNTED_LINE_BYTES && jsonValues(bytes, start, end, MAX_EVENT_LINE_VALUES) > MAX_EVENT_LINE_VALUES)
    throw new EventLineTooLongError(line, length, MAX_EVENT_LINE_VALUES);
}

/** The memory DuckDB may use for a reader's tables and SQL unless `HARNESSX_SQL_MEMORY` says otherwise: past it, DuckDB spills to a temporary folder, then fails. */
export const DEFAULT_SQL_MEMORY = "512MiB";
/** The most a reader's DuckDB spills to its temporary folder. */
export const MAX_SQL_SPILL = "4GiB";
/** The environment variable that raises (or lowers) `DEFAULT_SQL_MEMORY`, as DuckDB writes sizes: `2GB`, `1.5GiB`. */
export const SQL_MEMORY_ENV = "HARNESSX_SQL_MEMORY";

/** The DuckDB `memory_limit` of a reader: `HARNESSX_SQL_MEMORY` when set (a size DuckDB reads), else `DEFAULT_SQL_MEMORY`. */
export function sqlMemoryLimit(env: NodeJS.ProcessEnv = process.env): string {
  const asked = env[SQL_MEMORY_ENV]?.trim();
  if (!asked) return DEFAULT_SQL_MEMORY;
  if (!/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(asked))
    throw new HarnessError(
      "sql_memory_invalid",
      `${SQL_MEMORY_ENV} must be a size such as 2GB or 1.5GiB, got ${JSON.stringify(asked)}`,
    );
  return asked;
}

/** The most JSON the recorder writes for one event's attributes: past it, their texts are cut (`cutAttributes`), keeping every line under `MAX_EVENT_LINE_BYTES`. */
export const MAX_ATTRIBUTES_JSON_CHARS = 1024 * 1024;
