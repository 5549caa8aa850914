import type { CommandSpec } from "../command-spec.js";

/**
 * Every `trace` subcommand, in the order `trace --help` lists them, each loaded on demand: a
 * command's module brings what it reads with (DuckDB, the report, replay), and `trace ls` should
 * not pay to load `trace report`.
 */
const LOADERS = {
  ls: async () => (await import("./ls.js")).lsCommand,
  summary: async () => (await import("./summary.js")).summaryCommand,
  show: async () => (await import("./show.js")).showCommand,
  tail: async () => (await import("./tail.js")).tailCommand,
  view: async () => (await import("./view.js")).viewCommand,
  query: async () => (await import("./query.js")).queryCommand,
  export: async () => (await import("./export.js")).exportCommand,
  verify: async () => (await import("./verify.js")).verifyCommand,
  keys: async () => (await import("./keys.js")).keysCommand,
  convert: async () => (await import("./convert.js")).convertCommand,
  push: async () => (await import("./push.js")).pushCommand,
  sync: async () => (await import("./sync.js")).syncCommand,
  scrub: async () => (await import("./scrub.js")).scrubCommand,
  recover: async () => (await import("./recover.js")).recoverCommand,
  compact: async () => (await import("./compact.js")).compactCommand,
  resume: async () => (await import("./resume.js")).resumeCommand,
  replay: async () => (await import("./replay.js")).replayCommand,
  diff: async () => (await import("./diff.js")).diffCommand,
  report: async () => (await import("./report.js")).reportCommand,
  open: async () => (await import("./open.js")).openCommand,
  trust: async () => (await import("./trust.js")).trustCommand,
} satisfies Record<string, () => Promise<CommandSpec>>;

/** A subcommand's name. */
export type CommandName = keyof typeof LOADERS;

const isCommandName = (text: string): text is CommandName => Object.hasOwn(LOADERS, text);

/** The commands named (every command without `names`), in `trace --help` order. */
export async function loadCommands(names?: readonly CommandName[]): Promise<CommandSpec[]> {
  const wanted = (Object.keys(LOADERS) as CommandName[]).filter((name) => !names || names.includes(name));
  return Promise.all(wanted.map((name) => LOADERS[name]()));
}

/** Global options that take a value: the word after them is not the command. */
const VALUED_GLOBALS = new Set(["--store"]);

/**
 * The subcommand `argv` (as `process.argv`) runs, when it names one; undefined for help, the
 * version, or a word that is not a command (then every command is loaded, for help and hints).
 */
export function commandNamed(argv: readonly string[]): CommandName | undefined {
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i];
    if (word === "--") return undefined;
    if (VALUED_GLOBALS.has(word)) i++;
    else if (!word.startsWith("-")) return isCommandName(word) ? word : undefined;
  }
  return undefined;
}
