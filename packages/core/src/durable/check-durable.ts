import { ConfigError } from "../errors.js";
import type { DurableOptions } from "./durable-store.js";

/** The `durable` option checked when the agent is built: a store that can append, read and close, and known settings. */
export function checkDurable(options: DurableOptions): DurableOptions {
  const store = options?.store as Partial<DurableOptions["store"]> | undefined;
  if (
    !store ||
    typeof store.append !== "function" ||
    typeof store.read !== "function" ||
    typeof store.close !== "function"
  ) {
    throw new ConfigError("durable.store must be a DurableStore (append, read, close), e.g. new FileDurableStore(dir)");
  }
  if (options.durability !== undefined && options.durability !== "fsync" && options.durability !== "group") {
    throw new ConfigError(`durable.durability must be "fsync" or "group", not ${JSON.stringify(options.durability)}`);
  }
  if (options.interrupted !== undefined && options.interrupted !== "fail" && options.interrupted !== "ask") {
    throw new ConfigError(`durable.interrupted must be "fail" or "ask", not ${JSON.stringify(options.interrupted)}`);
  }
  return options;
}
