/** A user input that names a command: `/name` then its arguments. */
export interface CommandLine {
  /** The command's name, without the `/`. */
  name: string;
  /** Everything after the name, trimmed. */
  args: string;
}

const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** A valid slash command name: a letter or digit, then up to 63 of letters, digits, `_`, `.`, `:` and `-`. */
export function isCommandName(name: string): boolean {
  return COMMAND_NAME.test(name);
}
const LINE = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]{0,63})(?:\s+([\s\S]*))?$/;

/**
 * The command an input names, or undefined for ordinary input. Only `/name` followed by
 * whitespace or the end counts, so a path such as `/usr/bin is missing` is ordinary text.
 */
export function parseCommandLine(input: string): CommandLine | undefined {
  const match = LINE.exec(input.trim());
  return match ? { name: match[1]!, args: (match[2] ?? "").trim() } : undefined;
}

/** Arguments split as a shell would at spaces, with "double" or 'single' quotes holding one together. */
export function splitArguments(args: string): string[] {
  const out: string[] = [];
  for (const match of args.matchAll(/"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g)) {
    out.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3])!);
  }
  return out;
}

/**
 * A declarative command's body with its arguments in place: `$ARGUMENTS` is all of them,
 * `$1`..`$9` one each (empty when absent). A body that names none gets the arguments appended
 * on a line of their own, so they are never silently lost.
 */
export function substituteArguments(body: string, args: string): string {
  const positional = splitArguments(args);
  let used = false;
  const text = body.replace(/\$ARGUMENTS|\$([1-9])/g, (_, digit: string | undefined) => {
    used = true;
    return digit === undefined ? args : (positional[Number(digit) - 1] ?? "");
  });
  return used || args === "" ? text : `${text.replace(/\s+$/, "")}\n\n${args}`;
}
