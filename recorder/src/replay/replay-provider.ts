import { ProviderError, Redactor, type ModelProvider, type ModelRequest, type ProviderResponse } from "@harnessx/core";
import type { OpenedBundle } from "../bundle/open-bundle.js";
import { openRecording } from "../read/open-recording.js";
import type { Recording } from "../read/recording.js";
import type { RecordingStore } from "../store/recording-store.js";
import { firstDifference } from "./json-diff.js";
import { recordedCalls, type RecordedCall } from "./recorded-calls.js";

/** Where a new run's request differs from the recorded one at the same position. */
export interface ReplayDivergence {
  /** 0-based index of the provider call. */
  call: number;
  /** seq of the recorded LLM_REQUEST. */
  recordedSeq: number;
  /** JSON path of the first difference (e.g. `messages.2.content.0.content`). */
  path: string;
  recorded: unknown;
  actual: unknown;
}

export interface ReplayProviderOptions {
  /** Provider name reported in replies. Default "replay". */
  name?: string;
  /** Redaction applied to new requests before comparing (recorded ones were redacted). Default: the default rules; false when the run was recorded without. */
  redaction?: Redactor | false;
  /** Called on each divergence (e.g. to fail a test at once). */
  onDivergence?: (divergence: ReplayDivergence) => void;
}

/** The request fields compared besides `messages` (compared one message at a time). */
const COMPARED: ReadonlyArray<keyof ModelRequest> = ["model", "system", "tools", "maxTokens", "temperature"];

/**
 * A `ModelProvider` that answers with a recorded run's replies in order (failed attempts are
 * thrown again as `ProviderError`s of the recorded kind) and compares each new request with the
 * recorded one, collecting `divergences` instead of failing: rerun an incident against changed
 * code and see where it takes another path.
 */
export class ReplayProvider implements ModelProvider {
  readonly name: string;
  readonly defaultModel: string | undefined;
  readonly divergences: ReplayDivergence[] = [];
  private index = 0;
  private readonly sanitizer: Redactor | undefined;
  /** Each message of the rerun found equal to its recorded counterpart, with that counterpart. */
  private readonly matched = new WeakMap<object, unknown>();
  /** The request fields last found equal, recorded and actual (`actual.<key>`), to skip them while unchanged. */
  private readonly lastFields = new Map<string, unknown>();

  constructor(readonly calls: readonly RecordedCall[], private readonly options: ReplayProviderOptions = {}) {
    this.name = options.name ?? "replay";
    this.defaultModel = calls[0]?.request?.model;
    this.sanitizer = options.redaction === false ? undefined : options.redaction ?? new Redactor();
  }

  /** Replays a recording opened with `openRecording` (a run or a bundle; payloads stored aside are loaded). */
  static async fromRecording(recording: Recording, options: ReplayProviderOptions = {}): Promise<ReplayProvider> {
    const events = await recording.readEvents({ payloads: true });
    return new ReplayProvider(recordedCalls(events), { ...(recording.run.redaction === "off" ? { redaction: false as const } : {}), ...options });
  }

  /** Replays a run of a store. */
  static async fromRun(store: RecordingStore, runId: string, options: ReplayProviderOptions = {}): Promise<ReplayProvider> {
    await using recording = await openRecording({ runDir: store.runDir(runId) });
    return await ReplayProvider.fromRecording(recording, options);
  }

  /** Replays the run inside an incident bundle (a path, or one already opened). */
  static async fromBundle(bundle: string | OpenedBundle, options: ReplayProviderOptions = {}): Promise<ReplayProvider> {
    await using recording = await openRecording({ bundle });
    return await ReplayProvider.fromRecording(recording, options);
  }

  /** Calls answered so far. */
  get position(): number {
    return this.index;
  }

  /** True once a request differed from its recording. */
  get diverged(): boolean {
    return this.divergences.length > 0;
  }

  async complete(request: ModelRequest): Promise<ProviderResponse> {
    const call = this.index++;
    const recorded = this.calls[call];
    if (!recorded) {
      throw new ProviderError("script_exhausted", `the recording has ${this.calls.length} model calls; call ${call + 1} has no recorded reply (the new run went further than the recorded one)`);
    }
    this.compare(call, recorded, request);
    if (recorded.error) throw new ProviderError(recorded.error.kind, `replayed: ${recorded.error.message}`, { status: recorded.error.status });
    return recorded.response!;
  }

  /**
   * Compares incrementally, so a long run replays in linear time: a message is sanitized and
   * compared once, and again only when the rerun or the recording gives another object at its
   * place (a condensed or rewritten history); the other fields only when they change.
   */
  private compare(call: number, recorded: RecordedCall, request: ModelRequest): void {
    const diff = this.fieldsDifference(recorded.request, request) ?? this.messagesDifference(recorded.request?.messages ?? [], request?.messages ?? []);
    if (!diff) return;
    const divergence: ReplayDivergence = { call, recordedSeq: recorded.seq, ...diff };
    this.divergences.push(divergence);
    this.options.onDivergence?.(divergence);
  }

  private fieldsDifference(recorded: ModelRequest | undefined, request: ModelRequest | undefined): ReturnType<typeof firstDifference> {
    for (const key of COMPARED) {
      const expected = recorded?.[key];
      const actual = request?.[key];
      if (this.lastFields.get(key) === expected && this.lastFields.get(`actual.${key}`) === actual && actual !== undefined && typeof actual === "object") continue;
      const diff = firstDifference(expected, this.comparable(actual, `request.${key}`), key);
      if (diff) return diff;
      this.lastFields.set(key, expected);
      this.lastFields.set(`actual.${key}`, actual);
    }
    return undefined;
  }

  private messagesDifference(recorded: readonly unknown[], actual: readonly unknown[]): ReturnType<typeof firstDifference> {
    for (let i = 0; i < Math.max(recorded.length, actual.length); i++) {
      const expected = recorded[i];
      const message = actual[i];
      if (typeof message === "object" && message !== null && expected !== undefined && this.matched.get(message) === expected) continue;
      const diff = firstDifference(expected, this.comparable(message, `request.messages.${i}`), `messages.${i}`);
      if (diff) return diff;
      if (typeof message === "object" && message !== null) this.matched.set(message, expected);
    }
    return undefined;
  }

  /**
   * A part of the new request as the recording would hold it: redacted by the same rules, and
   * JSON-shaped (the recorded side was read back from JSON; sanitizing gives JSON-safe data).
   */
  private comparable(value: unknown, path: string): unknown {
    if (value === undefined || value === null || typeof value !== "object") return typeof value === "string" && this.sanitizer ? this.sanitizer.redactString(value) : value;
    return this.sanitizer ? this.sanitizer.sanitize(value, path, []) : (JSON.parse(JSON.stringify(value)) as unknown);
  }
}
