import { Command, CommanderError, Option } from "commander";
import { contextOf, type CliIO } from "./context.js";
import { CliError, ExitCode, oneLine } from "./errors.js";
import { classifyError } from "./store/errors.js";
import { terminalSafe } from "./output/terminal-safe.js";
import { commandNamed, loadCommands } from "./commands/index.js";
import type { CommandSpec } from "./command-spec.js";
import { CLI_VERSION } from "./version.js";

/** The `trace` program: global options, one subcommand per file under `commands/` (those given, by default every one). */
export async function createProgram(io: CliIO, commands?: readonly CommandSpec[]): Promise<Command> {
  const program = new Command("trace")
    .description(
      "Work an agent incident from its flight recording: list runs, read timelines, query with SQL, export, share, replay.",
    )
    .version(CLI_VERSION, "-V, --version")
    .addOption(
      new Option(
        "--store <dir>",
        "recording store (default: HARNESSX_DIR, else the nearest .harnessx with recordings from here up)",
      ),
    )
    .option("--json", "machine-readable output on stdout", false)
    .option("-q, --quiet", "no progress bars or notes on stderr", false)
    .option("--no-color", "no colours (also off when not a terminal or with NO_COLOR)")
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`trace: ${terminalSafe(text.replace(/^error: /, ""))}`),
    })
    .exitOverride();
  program.addHelpText(
    "after",
    `
A <run> is a run id or a unique prefix of one, last (the run that started last) or
last-<status> (last-failed, last-completed, ...), a run directory or a bundle file.

Exit codes: 0 ok, 1 failure (SQL error, replay diverged, push incomplete), 2 usage error,
3 not found (missing run, ambiguous id prefix), 4 invalid input (not a store, corrupt bundle),
5 push target unreachable.`,
  );
  for (const spec of commands ?? (await loadCommands())) {
    const command = spec.define().copyInheritedSettings(program);
    command.action(async (...received: unknown[]) => {
      const self = received[received.length - 1] as Command;
      const options = received[received.length - 2] as Record<string, unknown>;
      const args = received
        .slice(0, -2)
        .flatMap((a) => (Array.isArray(a) ? a.map(String) : a === undefined ? [] : [String(a)]));
      await spec.run(contextOf(self, io), args, options);
    });
    program.addCommand(command);
  }
  return program;
}

/** Runs `trace` with `argv` (as `process.argv`), returning the exit code instead of exiting. */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  // Only the command being run is loaded; help, the version and a mistyped command load them all.
  const named = commandNamed(argv);
  const program = await createProgram(io, await loadCommands(named ? [named] : undefined));
  try {
    await program.parseAsync([...argv]);
    return ExitCode.OK;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help")
        return err.exitCode === 0 ? 0 : ExitCode.USAGE;
      return err.code === "commander.executeSubCommandAsync" ? ExitCode.FAILURE : ExitCode.USAGE;
    }
    const error = err instanceof CliError ? err : classifyError(err);
    io.stderr.write(`trace: ${terminalSafe(oneLine(error.message))}\n`);
    if (io.env.TRACE_DEBUG) io.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    return error.exitCode;
  }
}
