import type { MappingOptions } from "../spans/span-specs.js";

/** Mapping options that leave content out, and ones that capture it, both cut at 20 characters. */
export const NO_CONTENT: MappingOptions = { captureContent: false, maxContentChars: 20 };
export const CONTENT: MappingOptions = { captureContent: true, maxContentChars: 20 };

/** The agent whose spans the span-spec tests map: a name, a session and a provider. */
export const agent = { name: "helper", sessionId: "sess_1", provider: "acme" };
