// Text from recordings, bundles, SQL results and file names is untrusted: a terminal acts on
// control characters in it (ESC [ 2 J clears the screen, OSC 52 writes the clipboard, OSC 8
// hides a link behind text, CR rewrites the line). Every such string the CLI prints goes through
// `terminalSafe`; JSON output keeps every character, escaped (`escapeJsonControls`).

/** ESC and C1 sequences: CSI, OSC / DCS / SOS / PM / APC strings up to their terminator, and two-byte escapes. */
const SEQUENCE =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]?|[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|[ -/]*[0-~]?)|\x9b[0-?]*[ -/]*[@-~]?|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;

/** C0 controls except tab and newline, DEL, and C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** `text` without terminal control sequences or control characters (tab and newline kept). */
export function terminalSafe(text: string): string {
  return text.replace(SEQUENCE, "").replace(CONTROL, "");
}

/**
 * JSON text with DEL and C1 characters written as `\u` escapes: JSON.stringify escapes C0 but
 * leaves these raw, and they only occur inside strings, so the escapes change nothing for parsers.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
