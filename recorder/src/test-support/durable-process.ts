import { spawn } from "node:child_process";

/** The durable recording child (`durable-child.ts`): run with tsx, as the source it is. */
const CHILD = new URL("./durable-child.ts", import.meta.url).pathname;

/** Records a durable run in a child process until it hangs in its pay call, then kills the child with SIGKILL; resolves with the run's id. */
export async function killedDurableRun(journalDir: string, storeDir: string): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, journalDir, storeDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let out = "";
  const runId = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const started = /started (\S+)\n/.exec(out);
      if (started) resolve(started[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the durable child exited (${code}) before its run hung: ${out}`)));
  });
  child.kill("SIGKILL");
  await exited;
  return runId;
}
