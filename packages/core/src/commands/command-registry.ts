import { ExtensionError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import { isCommandName } from "./command-line.js";

/** What a command's handler returns: the user message to send, or nothing when it only acted. */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback with a block body and no return infers void; the union lets it type-check
export type CommandOutcome = string | undefined | void;

/** A slash command as an extension registers it (`ctx.registerCommand(name, spec)`). */
export interface CommandSpec<C = unknown> {
  /** What the command does, as a command list shows it; a non-string is taken as `""`. */
  description: string;
  /** Runs when the user sends `/name args`; `args` is everything after the name. */
  handler(args: string, ctx: C): CommandOutcome | Promise<CommandOutcome>;
}

/** A registered command as `agent.commands()` lists it. */
export interface CommandInfo {
  /** The command's name, without the `/`: 1-64 letters, digits, `_`, `.`, `:` or `-`. */
  name: string;
  /** What the command does; `""` when none was given. */
  description: string;
  /** The extension that registered it. */
  extension: string;
  /** The Markdown file of a declarative command. */
  source?: string;
}

interface Bound {
  info: CommandInfo;
  run(args: string): Promise<CommandOutcome>;
}

/** The agent's slash commands by name: one owner per name, removed with its registration. */
export class CommandRegistry {
  private readonly commands = new Map<string, Bound>();

  register(info: CommandInfo, run: (args: string) => Promise<CommandOutcome>): Registration {
    if (!isCommandName(info.name))
      throw new ExtensionError(
        info.extension,
        `command name ${JSON.stringify(info.name)} must be 1-64 letters, digits, '_', '.', ':' or '-' (without the slash)`,
      );
    const holder = this.commands.get(info.name);
    if (holder)
      throw new ExtensionError(
        info.extension,
        `command "/${info.name}" is already registered by extension "${holder.info.extension}"`,
      );
    const bound: Bound = { info: Object.freeze({ ...info }), run };
    this.commands.set(info.name, bound);
    return registration(() => {
      if (this.commands.get(info.name) === bound) this.commands.delete(info.name);
    });
  }

  get(name: string): Bound | undefined {
    return this.commands.get(name);
  }

  list(): CommandInfo[] {
    return [...this.commands.values()]
      .map((c) => c.info)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
