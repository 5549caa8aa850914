import { ExtensionError, HarnessError, toError, UnknownCommandError } from "../errors.js";
import type { CommandInvokedData } from "../hooks/payloads.js";
import { parseCommandLine } from "./command-line.js";
import type { CommandRegistry } from "./command-registry.js";

/**
 * What a run's input becomes before the model sees it: ordinary input as it is; `/name args`
 * the message its command returns, or undefined when the command only acted. Each command is
 * reported (`COMMAND_INVOKED`, through `report`); an unknown one is an `UnknownCommandError`
 * and a failing handler an `ExtensionError` naming its extension, so the run fails closed.
 */
export async function expandInput(
  commands: CommandRegistry,
  input: string,
  report: (data: CommandInvokedData) => Promise<void> | undefined,
): Promise<string | undefined> {
  const line = parseCommandLine(input);
  if (!line) return input;
  const command = commands.get(line.name);
  if (!command) {
    await report({ command: line.name, args: line.args, found: false, sent: false, messageChars: 0 });
    throw new UnknownCommandError(
      line.name,
      commands.list().map((c) => c.name),
    );
  }
  const { extension, source } = command.info;
  let outcome: unknown;
  try {
    outcome = await command.run(line.args);
  } catch (err) {
    if (err instanceof HarnessError) throw err;
    throw new ExtensionError(extension, `command "/${line.name}" failed: ${toError(err).message}`, { cause: err });
  }
  if (outcome !== undefined && outcome !== null && typeof outcome !== "string") {
    throw new ExtensionError(
      extension,
      `command "/${line.name}" returned ${typeof outcome}; a handler returns the user message (a string) or nothing`,
    );
  }
  const message = typeof outcome === "string" && outcome.trim() !== "" ? outcome : undefined;
  await report({
    command: line.name,
    args: line.args,
    found: true,
    extension,
    ...(source ? { source } : {}),
    sent: message !== undefined,
    messageChars: message?.length ?? 0,
  });
  return message;
}
