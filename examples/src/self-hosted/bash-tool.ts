import { execFile } from "node:child_process";
import { tool, type Tool } from "harnessx";

/** A real `bash` tool: runs a command with `bash -c` in `cwd`, answering its exit code and output (cut at 20,000 characters). */
export function bashTool(cwd: string, timeoutSeconds = 30): Tool {
  return tool({
    name: "bash",
    description: "bash runs one shell command in the project folder and returns its exit code and output.",
    inputSchema: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
      additionalProperties: false,
    },
    timeoutSeconds,
    execute: ({ command }, { signal }) =>
      new Promise<string>((resolve) => {
        execFile("bash", ["-c", String(command)], { cwd, signal, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
          const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
          resolve(`exit ${code}\n${`${stdout}${stderr}`.slice(0, 20_000)}`);
        });
      }),
  });
}
