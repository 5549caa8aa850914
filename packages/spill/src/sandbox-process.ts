import { fork, type ChildProcess } from "node:child_process";
import { MEMORY_MARKER, type SandboxReply, type SandboxRequest } from "./sandbox-protocol.js";

/** Why the query process is gone: killed at a deadline, over its memory, crashed, or closed. */
export type ExitReason = "timeout" | "memory" | "crashed" | "closed";

export class SandboxExit extends Error {
  constructor(
    readonly reason: ExitReason,
    detail: string,
  ) {
    super(detail);
  }
}

/** JavaScript heap of the query process: it shapes capped answers a row at a time, so this is slack. */
const HEAP_MB = 192;
const STDERR_KEPT = 4_000;

type Body<T = SandboxRequest> = T extends unknown ? Omit<T, "id"> : never;
type Pending = { resolve: (reply: SandboxReply) => void; reject: (error: SandboxExit) => void; timer?: NodeJS.Timeout };

/**
 * Under tsx (tests, development) this module is TypeScript and so is the child's entry; the child
 * then needs tsx's loader, named by absolute URL because the child starts in another directory.
 */
function childEntry(): { path: URL; execArgv: string[] } {
  const typescript = import.meta.url.endsWith(".ts");
  const path = new URL(`./sandbox-child.${typescript ? "ts" : "js"}`, import.meta.url);
  // Not the agent's execArgv: an --inspect port or NODE_OPTIONS there must not reach the child.
  const execArgv = [`--max-old-space-size=${HEAP_MB}`, ...(typescript ? ["--import", import.meta.resolve("tsx")] : [])];
  return { path, execArgv };
}

/**
 * One query process and its IPC: requests answered in turn, each optionally under a deadline past
 * which the process is killed. A dead process fails every pending and later request with its reason.
 */
export class SandboxProcess {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderr = "";
  private exit?: SandboxExit;
  /** Settles when the process is gone (its directory may then be removed). */
  readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    child.stderr?.setEncoding("utf8").on("data", (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
    });
    child.on("message", (reply: SandboxReply) => this.settle(reply));
    // "close", not "exit": only then has all of stderr (the memory marker) been read.
    this.exited = new Promise((resolve) => {
      child.once("close", () => resolve());
      // A process that never spawned emits "error" and may never emit "close".
      child.once("error", () => child.pid === undefined && resolve());
    });
    child.on("close", (code, signal) => this.onExit(code, signal));
    child.on("error", (error) => this.kill("crashed", error.message));
    this.idle();
  }

  /** Starts the process in `dir` with an empty environment; resolves once DuckDB is open. */
  static start(dir: string): Promise<SandboxProcess> {
    const { path, execArgv } = childEntry();
    const child = fork(path, [], {
      cwd: dir,
      env: {},
      execArgv,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    const sandbox = new SandboxProcess(child);
    return new Promise((resolve, reject) => {
      sandbox.track(0, { resolve: () => resolve(sandbox), reject });
    });
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  get exitReason(): ExitReason | undefined {
    return this.exit?.reason;
  }

  /** Sends `body`; with `deadlineMs`, kills the process (reason "timeout") when no reply came by then. */
  request(body: Body, deadlineMs?: number): Promise<SandboxReply> {
    if (this.exit) return Promise.reject(this.exit);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer =
        deadlineMs === undefined
          ? undefined
          : setTimeout(() => this.kill("timeout", `no answer within ${deadlineMs} ms`), deadlineMs);
      this.track(id, { resolve, reject, timer });
      this.child.send({ ...body, id });
    });
  }

  /** Stops the process at once; whatever is pending fails with `reason`. */
  kill(reason: ExitReason, detail: string = reason): void {
    if (this.exit) return;
    this.fail(new SandboxExit(reason, detail));
    // Held until it is gone, so whoever awaits `exited` is not left with an empty event loop.
    this.child.ref();
    this.child.kill("SIGKILL");
  }

  private track(id: number, entry: Pending): void {
    this.pending.set(id, entry);
    // While a reply is awaited the process keeps the agent alive; idle, it must not.
    this.child.ref();
    this.child.channel?.ref();
  }

  private settle(reply: SandboxReply): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    this.pending.delete(reply.id);
    clearTimeout(entry.timer);
    this.idle();
    entry.resolve(reply);
  }

  private idle(): void {
    if (this.pending.size > 0 || this.exit) return;
    this.child.unref();
    this.child.channel?.unref();
  }

  /** An exit the agent did not cause: the process's own memory kill, a heap overflow, or a crash. */
  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exit) return;
    const memory = this.stderr.includes(MEMORY_MARKER) || /heap out of memory|Reached heap limit/i.test(this.stderr);
    const reason: ExitReason = memory ? "memory" : "crashed";
    const last = this.stderr.trim().split("\n").pop() ?? "";
    this.fail(
      new SandboxExit(
        reason,
        `the query process ended (${signal ?? `exit code ${code}`})${last ? `: ${last.slice(0, 300)}` : ""}`,
      ),
    );
  }

  private fail(exit: SandboxExit): void {
    this.exit ??= exit;
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.reject(this.exit);
    }
  }
}
