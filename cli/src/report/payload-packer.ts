import { createHash } from "node:crypto";
import { gzip, gzipSync } from "node:zlib";
import { promisify } from "node:util";

/** Events whose payloads share one compressed block: the page inflates a block when one of them is opened. */
const EVENTS_PER_BLOCK = 256;
/** Strings this long or longer are stored once, in the string table, and referenced where they occur. */
const SHARED_STRING_CHARS = 128;
const STRINGS_PER_BLOCK = 64;
/** Blocks compressed in the background at once, at most (libuv runs four at a time). */
const MAX_IN_FLIGHT = 8;
/** A string longer than this is cut in the report (the recording keeps it whole). */
const MAX_STRING_CHARS = 256 * 1024;
/**
 * Marks a reference to the string table inside a payload: `"\u0000<id>"`. A recorded string that
 * itself starts with the marker is written with it doubled.
 */
const MARK = "\u0000";

/**
 * The payloads of a report, compressed and deduplicated, for the page to inflate on demand (with
 * the browser's own gzip `DecompressionStream`): a run's payloads repeat the same texts (a tool
 * result, then the request that carries it), which gzip's window cannot see across a long run.
 */
export interface PackedPayloads {
  eventsPerBlock: number;
  /** Base64 gzip of a JSON array: each event's payload in order (null: none), long strings as references. */
  blocks: string[];
  stringsPerBlock: number;
  /** Base64 gzip of a JSON array of the shared strings, in id order. */
  strings: string[];
}

/** JSON text as the page embeds it: gzip, then base64 (the page's `inflate` reverses both). */
export function packedText(json: string): string {
  return gzipSync(json, { level: 6 }).toString("base64");
}

const gzipLater = promisify(gzip);

/** `packedText` compressed on libuv's thread pool: the caller goes on reading while it is. */
async function packedTextLater(json: string): Promise<string> {
  return (await gzipLater(json, { level: 6 })).toString("base64");
}

/**
 * Packs payloads one event at a time (in event order), holding only compressed blocks and a
 * digest per distinct long string, so its memory stays a fraction of the run's. With
 * `background`, blocks are compressed off the main thread while the next ones fill: collect
 * them with `finished()`; otherwise `finish()` returns them at once.
 */
export class PayloadPacker {
  private readonly blocks: Array<string | Promise<string>> = [];
  /** JSON texts of the payloads of the block being filled. */
  private pending: string[] = [];
  /** Shared string id by the string's sha1. */
  private readonly ids = new Map<string, number>();
  private readonly stringBlocks: Array<string | Promise<string>> = [];
  private pendingStrings: string[] = [];
  private stringCount = 0;
  private readonly inFlight = new Set<Promise<string>>();

  constructor(private readonly options: { background?: boolean } = {}) {}

  add(payload: unknown): void {
    this.pending.push(
      payload === undefined
        ? "null"
        : (JSON.stringify(payload, (_key, value: unknown) => this.shared(value)) ?? "null"),
    );
    if (this.pending.length === EVENTS_PER_BLOCK) this.flush();
  }

  /** Resolves once few enough blocks are being compressed: a reader faster than gzip waits here instead of piling blocks up in memory. */
  async room(): Promise<void> {
    while (this.inFlight.size >= MAX_IN_FLIGHT) await Promise.race(this.inFlight).catch(() => undefined);
  }

  /** Every block packed (a packer built without `background`). */
  finish(): PackedPayloads {
    this.flushAll();
    const done = (list: Array<string | Promise<string>>) =>
      list.map((block) => (typeof block === "string" ? block : unfinished()));
    return this.packed(done(this.blocks), done(this.stringBlocks));
  }

  /** Every block packed, once the background compression is done. */
  async finished(): Promise<PackedPayloads> {
    this.flushAll();
    return this.packed(await Promise.all(this.blocks), await Promise.all(this.stringBlocks));
  }

  private packed(blocks: string[], strings: string[]): PackedPayloads {
    return { eventsPerBlock: EVENTS_PER_BLOCK, blocks, stringsPerBlock: STRINGS_PER_BLOCK, strings };
  }

  private pack(json: string): string | Promise<string> {
    if (!this.options.background) return packedText(json);
    const packing = packedTextLater(json);
    this.inFlight.add(packing);
    // Its failure surfaces in `finished()`, never as an unhandled rejection meanwhile.
    packing.catch(() => undefined).finally(() => this.inFlight.delete(packing));
    return packing;
  }

  private flushAll(): void {
    this.flush();
    if (this.pendingStrings.length) this.stringBlocks.push(this.pack(JSON.stringify(this.pendingStrings)));
    this.pendingStrings = [];
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(this.pack(`[${this.pending.join(",")}]`));
    this.pending = [];
  }

  private shared(value: unknown): unknown {
    if (typeof value === "bigint") return value.toString();
    if (typeof value !== "string") return value;
    if (value.length < SHARED_STRING_CHARS) return value.startsWith(MARK) ? MARK + value : value;
    const digest = createHash("sha1").update(value).digest("base64");
    let id = this.ids.get(digest);
    if (id === undefined) {
      id = this.stringCount++;
      this.ids.set(digest, id);
      this.pendingStrings.push(
        value.length > MAX_STRING_CHARS
          ? `${value.slice(0, MAX_STRING_CHARS)}… [cut to ${MAX_STRING_CHARS} of ${value.length} characters in the report; trace show --full has it whole]`
          : value,
      );
      if (this.pendingStrings.length === STRINGS_PER_BLOCK) {
        this.stringBlocks.push(this.pack(JSON.stringify(this.pendingStrings)));
        this.pendingStrings = [];
      }
    }
    return MARK + id;
  }
}

function unfinished(): never {
  throw new Error("PayloadPacker: finish() on a packer compressing in the background; await finished()");
}
