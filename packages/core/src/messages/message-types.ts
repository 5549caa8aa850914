import { ExtensionError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import type { Message } from "../types/content.js";
import type { CustomEntry, CustomMessageType } from "./custom-messages.js";

/** How one custom entry type behaves (`ctx.registerMessageType`). */
export interface MessageTypeSpec<K extends string = CustomMessageType> {
  /**
   * What the model sees of an entry: a standard message, or null to leave it out. Without it the
   * type never reaches the model. Asked at every request; a throw fails the run (a projection
   * decides what the model is told, so it fails closed).
   */
  toModel?(entry: { type: K; data: CustomEntry<K>["data"] }): Message | null;
  /** The entry as one text for people: recorded with it, so `trace show` and the report need no extension code. */
  render?(entry: { type: K; data: CustomEntry<K>["data"] }): string;
}

interface Bound {
  extension: string;
  spec: MessageTypeSpec<string>;
}

const TYPE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** Registered custom entry types: one owner per type, removed with its registration. */
export class MessageTypeRegistry {
  private readonly types = new Map<string, Bound>();

  register(type: string, spec: MessageTypeSpec<string>, extension: string): Registration {
    if (typeof type !== "string" || !TYPE.test(type))
      throw new ExtensionError(
        extension,
        `message type ${JSON.stringify(type)} must be 1-64 letters, digits, '_', '.', ':' or '-'`,
      );
    for (const key of ["toModel", "render"] as const) {
      if (spec?.[key] !== undefined && typeof spec[key] !== "function")
        throw new ExtensionError(extension, `message type "${type}": ${key} must be a function`);
    }
    const holder = this.types.get(type);
    if (holder)
      throw new ExtensionError(
        extension,
        `message type "${type}" is already registered by extension "${holder.extension}"`,
      );
    const bound: Bound = { extension, spec: { ...spec } };
    this.types.set(type, bound);
    return registration(() => {
      if (this.types.get(type) === bound) this.types.delete(type);
    });
  }

  get(type: string): Bound | undefined {
    return this.types.get(type);
  }
}
