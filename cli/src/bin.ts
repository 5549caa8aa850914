#!/usr/bin/env node
import { runCli } from "./program.js";

const code = await runCli(process.argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
process.exitCode = code;
