// A process that records short runs into a store through the real recorder, for the catalog's
// tests of several recording processes at once. Arguments: the store and how many runs.
import { FlightRecorderExtension } from "../index.js";
import { scriptedAgent } from "./agents.js";

const [dir, runsText] = process.argv.slice(2);
const runs = Number(runsText);
const agent = scriptedAgent(
  Array.from({ length: runs }, () => ({ text: "done", usage: { inputTokens: 3, outputTokens: 1 } })),
  [new FlightRecorderExtension({ dir })],
  `catalog-child-${process.pid}`,
);
for (let i = 0; i < runs; i++) await agent.run(`run ${i}`);
await agent.close();
