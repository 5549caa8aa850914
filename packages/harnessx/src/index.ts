// The one import users write: the runtime, the provider adapters, the artifact store, and the built-in extensions.
export * from "@harnessx/core";
export * from "@harnessx/providers";
export * from "@harnessx/artifacts";
export * from "@harnessx/spill";
export * from "@harnessx/recorder";
export * from "@harnessx/exporters";
// Both packages name the recorded-event shape; the recorder's is the source of truth.
export type { RecordedEvent } from "@harnessx/recorder";
