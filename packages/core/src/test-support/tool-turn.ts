import { ScriptedProvider } from "../providers/scripted.js";

/** A model that calls `echo` with padded text, then answers "done". */
export const toolTurn = () =>
  new ScriptedProvider([{ toolCalls: [{ name: "echo", input: { text: "  padded  " } }] }, { text: "done" }]);
