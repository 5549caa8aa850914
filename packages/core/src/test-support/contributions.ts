import { ScriptedProvider } from "../providers/scripted.js";
import { contribution, type ContributionMembers } from "../extensions/contribution.js";
import { defineExtension } from "../extensions/extension.js";

/** A model that answers "ok" twice and keeps the requests it was sent. */
export const provider = () => new ScriptedProvider([{ text: "ok" }, { text: "ok" }], { recordRequests: true });

/** An extension named `name` that declares `members`, or whatever the given `contribute()` returns. */
export const declaring = (name: string, members: ContributionMembers | (() => unknown)) =>
  defineExtension({
    name,
    contribute: (typeof members === "function" ? members : () => contribution(name, members)) as () => never,
  });
