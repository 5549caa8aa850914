import { deepFreeze } from "../util/deep-freeze.js";
import type { ExtensionContribution } from "./contribution.js";
import type { TrustLevel } from "./trust-level.js";

type Members = Omit<ExtensionContribution, "extension" | "level" | "source" | "version">;
type Kind = keyof Members;
type Member<K extends Kind> = Members[K][number];

/**
 * Everything one extension has contributed and registered, in order: the record behind
 * `agent.contributions()`. Members leave it when their registration is closed.
 */
export class ContributionLedger {
  private readonly members: { [K in Kind]: Member<K>[] } = {
    tools: [],
    prompts: [],
    policies: [],
    lifecycle: [],
    middleware: [],
    observers: [],
    commands: [],
    templates: [],
    messageTypes: [],
  };

  constructor(
    readonly extension: string,
    readonly level: TrustLevel,
    readonly source: string | undefined,
    readonly version?: string,
  ) {}

  /** Records a member; the returned function forgets it again. */
  add<K extends Kind>(kind: K, member: Member<K>): () => void {
    const list = this.members[kind] as Member<K>[];
    list.push(member);
    return () => {
      const at = list.indexOf(member);
      if (at >= 0) list.splice(at, 1);
    };
  }

  list<K extends Kind>(kind: K): readonly Member<K>[] {
    return this.members[kind] as Member<K>[];
  }

  /** True when a prompt fragment, policy or lifecycle hook with this id is recorded. */
  hasId(kind: "prompts" | "policies" | "lifecycle", id: string): boolean {
    return this.members[kind].some((m) => m.id === id);
  }

  /** A frozen copy of the whole record. */
  snapshot(): ExtensionContribution {
    return deepFreeze({
      extension: this.extension,
      level: this.level,
      ...(this.source ? { source: this.source } : {}),
      ...(this.version ? { version: this.version } : {}),
      tools: [...this.members.tools],
      prompts: [...this.members.prompts],
      policies: [...this.members.policies],
      lifecycle: [...this.members.lifecycle],
      middleware: [...this.members.middleware],
      observers: [...this.members.observers],
      commands: [...this.members.commands],
      templates: [...this.members.templates],
      messageTypes: [...this.members.messageTypes],
    });
  }
}
