// The one import users write: the runtime, the provider adapters, and the built-in extensions.
export * from "@harnessx/core";
export * from "@harnessx/providers";
