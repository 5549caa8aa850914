import { expandInput } from "../commands/expand-input.js";
import { HookEvent } from "../hooks/events.js";
import { fire, type EngineServices } from "./services.js";

/**
 * A run's start, before its first model call: install-phase lifecycle hooks, `onSessionStart`
 * (once per agent), the slash command the input names, `onTurnStart`, the user's message, then
 * `beforeAgentStart`. False when a command only acted: the run then completes without a model call.
 */
export async function beginRun(services: EngineServices, input: string): Promise<boolean> {
  const { extensions, memory } = services;
  await extensions.open();
  await extensions.sessionStart();
  const message = await expandInput(services.commands, input, (data) =>
    fire(services, HookEvent.COMMAND_INVOKED, data),
  );
  await extensions.turnStart(message ?? input);
  if (message === undefined) return false;
  memory.push({ role: "user", content: [{ type: "text", text: message }] });
  const rewritten = await extensions.beforeAgentStart(input, memory.messages);
  if (rewritten) memory.replaceMessages(rewritten);
  return true;
}
