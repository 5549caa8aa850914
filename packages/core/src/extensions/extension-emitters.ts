import type { CustomData } from "../hooks/custom-events.js";
import { HookEvent } from "../hooks/events.js";
import type { HookBus } from "../hooks/hook-bus.js";
import type { ConversationMemory } from "../memory/conversation.js";
import type { ExtensionServices } from "./extension-services.js";

/** How an extension's entries and reports reach the conversation and the hook bus. */
export function extensionEmitters(
  hooks: HookBus,
  memory: ConversationMemory,
): Pick<ExtensionServices, "appendEntry" | "emitCustom" | "emitError" | "emitReported"> {
  return {
    appendEntry: (entry, text, toModel) => {
      memory.push(entry);
      const { type, extension, data } = entry;
      return (
        hooks.emit(HookEvent.MESSAGE_APPENDED, {
          type,
          extension,
          data,
          ...(text !== undefined ? { text } : {}),
          toModel,
        }) ?? Promise.resolve()
      );
    },
    emitCustom: (extension, name, data, artifacts) =>
      hooks.emit(HookEvent.CUSTOM, {
        extension,
        name,
        data,
        ...(artifacts?.length ? { artifacts } : {}),
      } as CustomData) ?? Promise.resolve(),
    emitError: (source, error, extension, dropped) =>
      hooks.emit(HookEvent.ERROR, { source, error, extension, ...(dropped !== undefined ? { dropped } : {}) }) ??
      Promise.resolve(),
    emitReported: (event, data) => hooks.emit(event, data) ?? Promise.resolve(),
  };
}
