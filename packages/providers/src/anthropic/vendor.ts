/** The `provider` tag of opaque Anthropic blocks (redacted thinking, server tool blocks). */
export const ANTHROPIC_VENDOR = "anthropic";
