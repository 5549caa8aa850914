import { ToolRegistrationError } from "../errors.js";
import { registration, type Registration } from "../registration.js";
import type { ToolDefinition } from "../types/provider.js";
import type { Tool } from "./tool.js";
import { readOnlySnapshot } from "../util/read-only.js";

interface Binding {
  tool: Tool;
  owner: string | undefined;
  /** The binding this one replaced; restored when this one is removed while active. */
  previous: Binding | undefined;
}

/** Options of `ToolRegistry.register`. */
export interface RegisterToolOptions {
  /** Needed to take over a name that is already bound. */
  replace?: boolean;
  /** Who registered it (an extension name); shown in errors. */
  owner?: string;
}

/** The tools an agent offers, by name. Replacements stack: removing one restores what it replaced. */
export class ToolRegistry {
  private readonly active = new Map<string, Binding>();
  private version = 0;
  private cachedDefinitions: readonly ToolDefinition[] | undefined;

  /**
   * Binds a tool under its name, on top of any earlier binding when `replace` is set.
   * @returns Unbinds it; the tool it replaced (if any) comes back when it was the active one.
   * @throws ToolRegistrationError when the name is taken and `replace` is not set.
   */
  register(tool: Tool, options: RegisterToolOptions = {}): Registration {
    const existing = this.active.get(tool.name);
    if (existing && !options.replace) {
      const by = existing.owner ? ` by extension "${existing.owner}"` : "";
      throw new ToolRegistrationError(
        `tool "${tool.name}" is already registered${by}; pass replace: true to replace it`,
      );
    }
    const binding: Binding = { tool, owner: options.owner, previous: existing };
    this.active.set(tool.name, binding);
    this.changed();
    return registration(() => this.unbind(binding));
  }

  private unbind(binding: Binding): void {
    const name = binding.tool.name;
    const top = this.active.get(name);
    if (top === binding) {
      if (binding.previous) this.active.set(name, binding.previous);
      else this.active.delete(name);
      this.changed();
      return;
    }
    // Not active: unlink it so a later removal does not restore it.
    for (let b = top; b; b = b.previous) {
      if (b.previous === binding) {
        b.previous = binding.previous;
        return;
      }
    }
  }

  private changed(): void {
    this.version++;
    this.cachedDefinitions = undefined;
  }

  /** The tool bound to `name` now; undefined when none is. */
  get(name: string): Tool | undefined {
    return this.active.get(name)?.tool;
  }

  /** The extension that registered the active tool of that name; undefined for the application's tools or an unknown name. */
  ownerOf(name: string): string | undefined {
    return this.active.get(name)?.owner;
  }

  /** True when a tool is bound to `name`. */
  has(name: string): boolean {
    return this.active.has(name);
  }

  /** The names of the active tools, in registration order (a replacement keeps its name's place). */
  names(): string[] {
    return [...this.active.keys()];
  }

  /** The active tools, in the order of `names()`. */
  list(): Tool[] {
    return [...this.active.values()].map((b) => b.tool);
  }

  /**
   * The definitions sent to providers; the same array until the set of tools changes. A frozen
   * copy: requests and their observers share it, and the tools' own schema objects stay theirs.
   */
  definitions(): readonly ToolDefinition[] {
    this.cachedDefinitions ??= readOnlySnapshot(this.list().map((t) => t.definition));
    return this.cachedDefinitions;
  }

  /** Increases whenever a tool is bound or unbound. */
  get revision(): number {
    return this.version;
  }
}
