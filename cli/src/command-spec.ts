import type { Command } from "commander";
import type { CommandContext } from "./context.js";

/** A command's definition: its commander shape and what it does. */
export interface CommandSpec {
  /** Builds the commander command (name, arguments, options, help). */
  define(): Command;
  /** Runs it; `args` are the positional arguments, `options` the command's own options. */
  run(ctx: CommandContext, args: string[], options: Record<string, unknown>): Promise<void>;
}
