import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { createServer as createNetServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * How an endpoint misbehaves, for every request on every path (OTLP and LangSmith alike):
 * - `status_500`, `status_429` (with `Retry-After: 30`): refuses the upload;
 * - `black_hole`: accepts the connection and the request, never answers;
 * - `slow`: answers `200 {}` after `SLOW_MS`, well within any flush limit;
 * - `garbage`: answers bytes that are not HTTP, then closes;
 * - `reset`: resets each connection as soon as it is made;
 * - `malformed_200`: answers `200` with a body that is not the JSON it claims to be.
 */
export type HostileMode = "status_500" | "status_429" | "black_hole" | "slow" | "garbage" | "reset" | "malformed_200";

export const SLOW_MS = 100;

export interface HostileEndpoint {
  /** Base URL, no path. */
  url: string;
  /** Requests (for `garbage` and `reset`: connections) received. */
  readonly requests: number;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

function answer(mode: HostileMode, res: ServerResponse): void {
  if (mode === "black_hole") return;
  if (mode === "status_500")
    return void res.writeHead(500, { "content-type": "application/json" }).end('{"detail":"boom"}');
  if (mode === "status_429") return void res.writeHead(429, { "retry-after": "30" }).end("slow down");
  if (mode === "malformed_200")
    return void res.writeHead(200, { "content-type": "application/json" }).end("<html>this is not json");
  setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), SLOW_MS);
}

function raw(mode: "garbage" | "reset", socket: Socket): void {
  socket.on("error", () => {});
  if (mode === "reset") return void socket.resetAndDestroy();
  socket.once("data", () => socket.end("\u0000\u00ffNOT-HTTP garbage\r\n\r\n"));
}

/** Starts a misbehaving endpoint on loopback. */
export async function startHostileEndpoint(mode: HostileMode): Promise<HostileEndpoint> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server =
    mode === "garbage" || mode === "reset"
      ? createNetServer((socket) => {
          requests++;
          raw(mode, socket);
        })
      : createHttpServer((req, res) => {
          requests++;
          req.resume();
          req.on("end", () => answer(mode, res));
        });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
