import { pathToFileURL } from "node:url";
import type { Agent } from "@harnessx/core";
import { invalidInput } from "../errors.js";

type Factory<Parts> = (parts: Parts) => Agent | Promise<Agent>;

async function loadFactory<Parts>(file: string): Promise<Factory<Parts>> {
  let module: { default?: unknown; createAgent?: unknown };
  try {
    module = (await import(pathToFileURL(file).href)) as typeof module;
  } catch (err) {
    throw invalidInput(`cannot load the agent module ${file}: ${(err as Error).message}`);
  }
  const factory = module.createAgent ?? module.default;
  if (typeof factory !== "function")
    throw invalidInput(`${file} must export createAgent (or a default function) returning an Agent`);
  return factory as Factory<Parts>;
}

/**
 * The agent a user's module builds (`--agent <module>`: it exports `createAgent(parts)` or a
 * default function); a module that fails to load, throws, or returns no Agent is bad input, named as such.
 */
export async function buildAgent<Parts>(file: string, parts: Parts): Promise<Agent> {
  const factory = await loadFactory<Parts>(file);
  let agent: unknown;
  try {
    agent = await factory(parts);
  } catch (err) {
    throw invalidInput(`the agent module ${file} failed to build its agent: ${(err as Error).message}`);
  }
  // By shape, not instanceof: the module may load its own copy of harnessx.
  if (typeof (agent as Partial<Agent> | null)?.run !== "function")
    throw invalidInput(
      `the agent module ${file} must return an Agent (from harnessx), got ${agent === null ? "null" : typeof agent}`,
    );
  return agent as Agent;
}
