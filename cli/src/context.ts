import { resolve } from "node:path";
import { findStoreDir } from "@harnessx/core";
import type { Command } from "commander";
import { colorsFor, type Colors } from "./output/colors.js";
import { stringifyJson } from "./output/json.js";
import { createProgress, type Progress } from "./output/progress.js";
import { renderRows, type Column, type RowFormat } from "./output/table.js";
import { terminalSafe } from "./output/terminal-safe.js";

/** Where the CLI reads and writes; tests and embedders pass their own. */
export interface CliIO {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** Directory relative paths are resolved against. */
  cwd: string;
}

/** Options every command accepts (declared on the root program). */
export interface GlobalOptions {
  /** The recording store: `--store`, else `HARNESSX_DIR` (`HARNESSX_STORE` too), else the nearest `.harnessx` with recordings, as git finds its repository. */
  store: string;
  /** Machine-readable output on stdout. */
  json: boolean;
  /** No progress bars and no notes on stderr; results and errors still print. */
  quiet: boolean;
  /** False after `--no-color`. */
  color: boolean;
}

/** What a command's action works with: parsed global options and output helpers. */
export class CommandContext {
  readonly colors: Colors;
  readonly errColors: Colors;

  constructor(
    readonly options: GlobalOptions,
    readonly io: CliIO,
  ) {
    this.colors = colorsFor(io.stdout, io.env, !options.color);
    this.errColors = colorsFor(io.stderr, io.env, !options.color);
  }

  /** A line of the command's result on stdout. */
  print(text = ""): void {
    this.io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  /** A JSON document on stdout. */
  printJson(value: unknown): void {
    this.print(stringifyJson(value));
  }

  /** A note for people on stderr, silenced by `--quiet`; notes quote untrusted names, so control sequences go. */
  note(text: string): void {
    if (!this.options.quiet) this.io.stderr.write(`${terminalSafe(text)}\n`);
  }

  /** Rows as a table on stdout, or JSON with `--json`, or CSV when asked. */
  printRows<Row>(
    rows: readonly Row[],
    columns: readonly Column<Row>[],
    options: { csv?: boolean; keys?: string[] } = {},
  ): void {
    const format: RowFormat = options.csv ? "csv" : this.options.json ? "json" : "table";
    const terminal = Boolean(this.io.stdout.isTTY);
    const text = renderRows(rows, columns, {
      format,
      terminal,
      colors: terminal ? this.colors : undefined,
      keys: options.keys,
    });
    if (text !== "") this.print(text);
  }

  /** A progress bar on stderr, only on a terminal and never with `--quiet` or `--json`. */
  progress(label: string, units?: string): Progress {
    return createProgress(label, { enabled: !this.options.quiet && !this.options.json, stream: this.io.stderr, units });
  }

  /** Resolves a path the user typed against the working directory. */
  path(text: string): string {
    return resolve(this.io.cwd, text);
  }
}

/** The context of the command whose action is running. */
export function contextOf(command: Command, io: CliIO): CommandContext {
  const opts = command.optsWithGlobals<Partial<GlobalOptions>>();
  return new CommandContext(
    {
      store: opts.store ?? findStoreDir(io.cwd, { HARNESSX_DIR: io.env.HARNESSX_DIR || io.env.HARNESSX_STORE }),
      json: opts.json ?? false,
      quiet: opts.quiet ?? false,
      color: opts.color ?? true,
    },
    io,
  );
}
