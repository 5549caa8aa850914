// How each lifecycle hook's failure surfaces: the error names the extension and the hook and
// keeps the original as its cause; what fails a run, what is only reported, what close() throws.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { ExtensionError } from "../errors.js";
import { HookEvent } from "../hooks/events.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { ofKind, recordEvents } from "../test-support/helpers.js";
import { contribution } from "./contribution.js";
import { defineExtension, type ExtensionDefinition } from "./extension.js";

const agentOf = (...definitions: ExtensionDefinition[]) =>
  new Agent({
    provider: new ScriptedProvider([{ text: "ok" }, { text: "ok" }]),
    extensions: definitions.map((d) => defineExtension(d)),
  });

function failsWith(error: unknown, message: string, cause: Error) {
  assert.ok(error instanceof ExtensionError, String(error));
  assert.equal(error.message, message);
  assert.equal(error.cause, cause);
}

describe("hooks whose failure fails the run", () => {
  for (const hook of ["onTurnStart", "onTurnSuccess", "beforeAgentStart"] as const) {
    test(`${hook}`, async () => {
      const cause = new Error("no database");
      const result = await agentOf({
        name: "db",
        [hook]: () => {
          throw cause;
        },
      }).run("x");
      assert.equal(result.status, "failed");
      failsWith(result.error, `extension "db": ${hook} failed: no database`, cause);
    });
  }

  test("an install-phase lifecycle hook", async () => {
    const cause = new Error("ECONNREFUSED");
    const result = await agentOf({
      name: "db",
      contribute: () =>
        contribution("db", {
          lifecycle: [
            {
              id: "connect",
              phase: "install",
              run: () => {
                throw cause;
              },
            },
          ],
        }),
    }).run("x");
    failsWith(result.error, 'extension "db": lifecycle "connect" (install) failed: ECONNREFUSED', cause);
  });

  test("beforeAgentStart returns messages or nothing: null is nothing, anything else fails the run", async () => {
    assert.equal(
      (await agentOf({ name: "quiet", beforeAgentStart: () => null as never }).run("x")).status,
      "completed",
    );
    const result = await agentOf({ name: "odd", beforeAgentStart: () => "hello" as never }).run("x");
    assert.equal(result.status, "failed");
    assert.equal(
      result.error!.message,
      'extension "odd": beforeAgentStart must return the messages (an array) or nothing',
    );
  });
});

describe("hooks whose failure is only reported", () => {
  test("onSessionStart and onSessionEnd report the original as the cause; an extension without them reports nothing", async () => {
    const agent = agentOf(
      { name: "plain", install: () => {} },
      {
        name: "noisy",
        onSessionStart: () => {
          throw new Error("no telemetry");
        },
        onSessionEnd: () => {
          throw new Error("disk full");
        },
      },
    );
    const seen = recordEvents(agent);
    assert.equal((await agent.run("x")).status, "completed");
    await agent.close();
    const errors = ofKind(seen, HookEvent.ERROR);
    assert.deepEqual(
      errors.map((e) => [e.extension, e.error.message]),
      [
        ["noisy", 'extension "noisy": onSessionStart failed: no telemetry'],
        ["noisy", 'extension "noisy": onSessionEnd failed: disk full'],
      ],
    );
    assert.deepEqual(
      errors.map((e) => (e.error.cause as Error | undefined)?.message),
      ["no telemetry", "disk full"],
      "observers see a copy of the error, its cause included",
    );
  });
});

describe("close()", () => {
  test("close-phase hooks run in reverse declaration order, then close(); every failure is thrown together", async () => {
    const log: string[] = [];
    const hookCause = new Error("socket stuck");
    const teardownCause = new Error("lock held");
    const agent = agentOf({
      name: "pool",
      contribute: () =>
        contribution("pool", {
          lifecycle: [
            { id: "drain", phase: "close", run: () => void log.push("drain") },
            {
              id: "disconnect",
              phase: "close",
              run: () => {
                log.push("disconnect");
                throw hookCause;
              },
            },
          ],
        }),
      close: () => {
        log.push("teardown");
        throw teardownCause;
      },
    });
    await assert.rejects(agent.close(), (err: unknown) => {
      assert.ok(err instanceof AggregateError);
      assert.equal(
        err.message,
        '2 extension close(s) failed: extension "pool": lifecycle "disconnect" (close) failed: socket stuck; extension "pool": close() failed: lock held',
      );
      failsWith(err.errors[0], 'extension "pool": lifecycle "disconnect" (close) failed: socket stuck', hookCause);
      failsWith(err.errors[1], 'extension "pool": close() failed: lock held', teardownCause);
      return true;
    });
    assert.deepEqual(log, ["disconnect", "drain", "teardown"]);
  });
});
