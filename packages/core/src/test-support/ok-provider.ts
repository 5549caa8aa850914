import { ScriptedProvider } from "../providers/scripted.js";

/** A model that answers "ok" to each of `n` requests. */
export const okProvider = (n = 1) => new ScriptedProvider(Array.from({ length: n }, () => ({ text: "ok" })));
