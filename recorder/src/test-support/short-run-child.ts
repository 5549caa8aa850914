// A process that records one short run and exits the moment it ends, without closing the agent:
// the run is then still on its way to disk, and the exit handler must finish writing it.
import { FlightRecorderExtension } from "../index.js";
import { echoScript, scriptedAgent } from "./agents.js";

const [dir, callsText] = process.argv.slice(2);
const recorder = new FlightRecorderExtension({ dir });
const agent = scriptedAgent(echoScript(Number(callsText)), [recorder], "exit-child");
const result = await agent.run("exit as soon as this ends");
process.stdout.write(`${result.runId}\n`);
process.exit(0);
