import { ProviderError, type ModelProvider, type ModelRequest, type ProviderResponse } from "@harnessx/core";
import { Redactor } from "@harnessx/core/extension";
import type { OpenedBundle } from "../bundle/open-bundle.js";
import { openRecording } from "../read/open-recording.js";
import type { Recording } from "../read/recording.js";
import type { RecordingStore } from "../store/recording-store.js";
import { RequestComparer, type RequestDifference } from "./request-comparer.js";
import { recordedCalls, type RecordedCall } from "./recorded-calls.js";

/** Where a new run's request differs from the recorded one at the same position. */
export interface ReplayDivergence extends RequestDifference {
  /** 0-based index of the provider call. */
  call: number;
  /** seq of the recorded LLM_REQUEST. */
  recordedSeq: number;
}

/** Options of `ReplayProvider`; every field is optional. */
export interface ReplayProviderOptions {
  /** Provider name reported in replies. Default "replay". */
  name?: string;
  /**
   * Redaction applied to new requests before comparing (recorded ones were redacted): your
   * agent's policy (`agent.redactor`), or a function returning it, read at the first call (the
   * agent is built around this provider). Default: the default policy; false (`fromRecording`)
   * when the run was recorded without. A run's recorded patterns are never compiled.
   */
  redaction?: Redactor | false | (() => Redactor | false);
  /** Called on each divergence (e.g. to fail a test at once). */
  onDivergence?: (divergence: ReplayDivergence) => void;
}

/**
 * A `ModelProvider` that answers with a recorded run's replies in order (failed attempts are
 * thrown again as `ProviderError`s of the recorded kind) and compares each new request with the
 * recorded one, collecting `divergences` instead of failing: rerun an incident against changed
 * code and see where it takes another path.
 */
export class ReplayProvider implements ModelProvider {
  /** Provider name in replies: `options.name`, default "replay". */
  readonly name: string;
  readonly defaultModel: string | undefined;
  /** Every request that differed from its recording so far, in call order. */
  readonly divergences: ReplayDivergence[] = [];
  private index = 0;
  /** New requests are redacted with the reader's policy, then compared with the recorded ones (see `RequestComparer`); made at the first call. */
  private comparer: RequestComparer | undefined;

  constructor(
    /** The recorded calls answered in order (see `recordedCalls`). */
    readonly calls: readonly RecordedCall[],
    private readonly options: ReplayProviderOptions = {},
  ) {
    this.name = options.name ?? "replay";
    this.defaultModel = calls[0]?.request?.model;
  }

  /** Replays a recording opened with `openRecording` (a run or a bundle; payloads stored aside are loaded). */
  static async fromRecording(recording: Recording, options: ReplayProviderOptions = {}): Promise<ReplayProvider> {
    const events = await recording.readEvents({ payloads: true });
    return new ReplayProvider(recordedCalls(events), {
      ...(recording.run.redaction === "off" ? { redaction: false as const } : {}),
      ...options,
    });
  }

  /** Replays a run of a store. */
  static async fromRun(
    store: RecordingStore,
    runId: string,
    options: ReplayProviderOptions = {},
  ): Promise<ReplayProvider> {
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

  /**
   * Answers with the next recorded reply, after noting any divergence of `request` from the
   * recorded request. Throws the recorded failure as a `ProviderError` of its kind, and a
   * `script_exhausted` `ProviderError` once the new run asks for more calls than were recorded.
   */
  async complete(request: ModelRequest): Promise<ProviderResponse> {
    const call = this.index++;
    const recorded = this.calls[call];
    if (!recorded) {
      throw new ProviderError(
        "script_exhausted",
        `the recording has ${this.calls.length} model calls; call ${call + 1} has no recorded reply (the new run went further than the recorded one)`,
      );
    }
    this.compare(call, recorded, request);
    if (recorded.error)
      throw new ProviderError(recorded.error.kind, `replayed: ${recorded.error.message}`, {
        status: recorded.error.status,
      });
    return recorded.response!;
  }

  private compare(call: number, recorded: RecordedCall, request: ModelRequest): void {
    if (!this.comparer) {
      const chosen = typeof this.options.redaction === "function" ? this.options.redaction() : this.options.redaction;
      this.comparer = new RequestComparer(chosen === false ? undefined : (chosen ?? new Redactor()));
    }
    const diff = this.comparer.compare(recorded.request, request);
    if (!diff) return;
    const divergence: ReplayDivergence = { call, recordedSeq: recorded.seq, ...diff };
    this.divergences.push(divergence);
    this.options.onDivergence?.(divergence);
  }
}
