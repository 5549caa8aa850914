#!/usr/bin/env node
import { runDemo } from "./demo/run-demo.js";

const { result } = await runDemo();
process.exitCode = result.status === "completed" ? 0 : 1;
