import type { Registry } from "../util/registry.js";
import type { StatusProvider } from "./extension-services.js";

/** One line of the agent's status: which extension said what. */
export interface StatusLine {
  /** The extension whose provider gave the line. */
  extension: string;
  /** The line itself; never empty. */
  text: string;
}

/** Every provider's line, in install order; one that throws or returns nothing is left out (a status line is decoration). */
export function statusLines(providers: Registry<StatusProvider>): StatusLine[] {
  const lines: StatusLine[] = [];
  for (const { value, owner } of providers.list()) {
    try {
      const text = value();
      if (typeof text === "string" && text !== "") lines.push({ extension: owner ?? "", text });
    } catch {
      // A failing provider only loses its own line: a status line is decoration.
    }
  }
  return lines;
}
