import type { ModelPrice } from "@harnessx/core";
import { RunHost } from "@harnessx/core";
import type { ExtensionEntry, RedactionOptions } from "@harnessx/core/extension";
import { FlightRecorderExtension } from "../recording/flight-recorder.js";
import type { FlightRecorderOptions } from "../recording/options.js";

/** How a framework's runs are recorded (`recordAiSdk`, `recordOpenAIAgents`). */
export interface FrameworkRecordingOptions {
  /** The recorder to write with, or the options of a new one (default: a new one on the default store). */
  recorder?: FlightRecorderExtension | FlightRecorderOptions;
  /** More extensions to feed the runs to (an OpenTelemetry or LangSmith exporter). */
  extensions?: readonly ExtensionEntry[];
  /** The agent's name in the recording and traces (`invoke_agent <name>`). Default: the framework's name. */
  name?: string;
  /** The redaction policy, as `AgentOptions.redact`. */
  redact?: RedactionOptions | false;
  /** Prices of models by id, used before genai-prices' table (as `AgentOptions.prices`). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** The recorder and the host a framework's runs are reported through, as the options ask. */
export function frameworkRecording(
  framework: string,
  options: FrameworkRecordingOptions,
): { recorder: FlightRecorderExtension; host: RunHost } {
  const recorder =
    options.recorder instanceof FlightRecorderExtension
      ? options.recorder
      : new FlightRecorderExtension(options.recorder);
  const host = new RunHost({
    framework,
    name: options.name ?? framework,
    extensions: [recorder, ...(options.extensions ?? [])],
    ...(options.redact !== undefined ? { redact: options.redact } : {}),
    ...(options.prices ? { prices: options.prices } : {}),
  });
  return { recorder, host };
}
