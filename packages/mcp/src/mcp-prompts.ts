import type { GetPromptResult, Prompt } from "@modelcontextprotocol/sdk/types.js";
import { splitArguments } from "@harnessx/core";

/**
 * A prompt's arguments from a command line: `name=value` words by name, the other words in the
 * order the prompt declares its arguments. A required argument left out is an error naming it.
 */
export function promptArguments(prompt: Prompt, args: string): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const out: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of splitArguments(args)) {
    const named = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(word);
    if (named && declared.some((a) => a.name === named[1])) out[named[1]!] = named[2]!;
    else positional.push(word);
  }
  for (const argument of declared) {
    if (out[argument.name] === undefined && positional.length) out[argument.name] = positional.shift()!;
  }
  const missing = declared.find((a) => a.required && out[a.name] === undefined);
  if (missing)
    throw new Error(
      `prompt "${prompt.name}" needs the argument "${missing.name}" (${declared.map((a) => `${a.name}${a.required ? "" : "?"}`).join(" ")})`,
    );
  return out;
}

/** A prompt's messages as the one user message a command sends: their texts, in order. */
export function promptText(result: GetPromptResult): string {
  return result.messages
    .map((m) =>
      m.content.type === "text"
        ? m.content.text
        : m.content.type === "resource" && "text" in m.content.resource
          ? String(m.content.resource.text)
          : `[${m.content.type} content]`,
    )
    .join("\n\n");
}
