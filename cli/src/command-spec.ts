import type { Command } from "commander";
import type { CommandContext } from "./context.js";

/**
 * A command's definition: its commander shape and what it does. `Args` types the positional
 * arguments: commander refuses a call that lacks a required one (`<run>`), so a command with
 * required arguments names them as a tuple, e.g. `CommandSpec<[run: string]>`.
 */
export interface CommandSpec<Args extends string[] = string[]> {
  /** Builds the commander command (name, arguments, options, help). */
  define(): Command;
  /** Runs it; `args` are the positional arguments, `options` the command's own options. */
  run(ctx: CommandContext, args: Args, options: Record<string, unknown>): Promise<void>;
}
