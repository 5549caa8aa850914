import { ExtensionError } from "../errors.js";
import type { ExtensionServices } from "../extensions/extension-services.js";
import { assertJsonCompatible } from "../session/json-check.js";
import { readOnlySnapshot } from "../util/read-only.js";

/**
 * Appends a custom entry for `extension`: only of a type it registered, with JSON data; its text
 * is what the type's `render` says (a failing render is reported and the entry kept without it).
 */
export async function appendCustomEntry(
  services: ExtensionServices,
  extension: string,
  type: string,
  data: unknown,
): Promise<void> {
  const bound = services.messageTypes.get(type);
  if (!bound || bound.extension !== extension)
    throw new ExtensionError(
      extension,
      `cannot append a "${type}" entry: an extension appends only message types it registered (registerMessageType)`,
    );
  try {
    assertJsonCompatible(data, `$.${type}`);
  } catch (err) {
    throw new ExtensionError(extension, `the data of a "${type}" entry must be JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  let text: string | undefined;
  try {
    text = bound.spec.render?.({ type, data });
  } catch (err) {
    await services.emitError(
      "extension",
      new ExtensionError(extension, `render of message type "${type}" failed: ${(err as Error).message}`, {
        cause: err,
      }),
      extension,
    );
  }
  // A frozen copy: the entry is history, and the extension's own object stays its own.
  await services.appendEntry(
    { role: "custom", type, data: readOnlySnapshot(data), extension },
    typeof text === "string" ? text : undefined,
    bound.spec.toModel !== undefined,
  );
}
