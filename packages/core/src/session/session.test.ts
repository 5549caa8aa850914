import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { SessionStateError } from "../errors.js";
import { defineExtension, type JsonValue } from "../extensions/extension.js";
import { ScriptedProvider } from "../providers/scripted.js";

function notes(initial: unknown, log: JsonValue[] = []) {
  let notesState = initial;
  return defineExtension({
    name: "notes",
    stateVersion: 2,
    install: () => {},
    onSaveSession: () => notesState as JsonValue,
    onLoadSession: (_ctx, state) => {
      if (!state || typeof state !== "object" || !Array.isArray((state as { items?: unknown }).items))
        throw new Error("expected { items: [] }");
      log.push(state);
      notesState = state;
    },
  });
}

describe("persistence: saveSession and loadSession", () => {
  test("conversation and extension state survive into a new agent", async () => {
    const first = new Agent({
      provider: new ScriptedProvider([{ text: "remembered" }]),
      extensions: [notes({ items: ["a"] })],
    });
    await first.run("remember this");
    const saved = JSON.parse(JSON.stringify(first.saveSession()));
    assert.deepEqual(saved.extensions.notes, { version: 2, state: { items: ["a"] } });

    const loaded: JsonValue[] = [];
    const provider = new ScriptedProvider([{ text: "next" }], { recordRequests: true });
    const second = new Agent({ provider, extensions: [notes({ items: [] }, loaded)] });
    await second.loadSession(saved);
    assert.deepEqual(loaded, [{ items: ["a"] }]);
    await second.run("and now?");
    assert.deepEqual(
      provider.requests[0]!.messages.map((m) => m.role),
      ["user", "assistant", "user"],
    );
  });

  test("state that is not JSON-compatible is refused at save time with its path", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const [value, path, why] of [
      [{ items: [() => 1] }, "$.extensions.notes.state.items[0]", /function/],
      [cyclic, "$.extensions.notes.state.self", /cycle/],
      [{ n: Number.NaN }, "$.extensions.notes.state.n", /NaN is not a finite number/],
      [{ big: 10n }, "$.extensions.notes.state.big", /BigInt/],
      [{ when: new Date() }, "$.extensions.notes.state.when", /Date/],
    ] as const) {
      const agent = new Agent({ provider: new ScriptedProvider([]), extensions: [notes(value)] });
      assert.throws(
        () => agent.saveSession(),
        (err: unknown) => {
          assert.ok(err instanceof SessionStateError);
          assert.equal(err.path, path);
          assert.match(err.message, why);
          return true;
        },
      );
    }
  });

  test("a wrong version or shape is refused at load with a clear error", async () => {
    const agent = () => new Agent({ provider: new ScriptedProvider([]), extensions: [notes({ items: [] })] });
    const good = agent().saveSession();
    await assert.rejects(agent().loadSession({ ...good, version: 9 }), /version 9 is not supported/);
    await assert.rejects(agent().loadSession({ ...good, format: "other" }), /format "other"/);
    await assert.rejects(agent().loadSession({ ...good, messages: [{ role: "system" }] }), /message 0/);
    await assert.rejects(
      agent().loadSession({ ...good, extensions: { notes: { version: 1, state: { items: [] } } } }),
      /has version 1, this extension reads version 2/,
    );
    await assert.rejects(
      agent().loadSession({ ...good, extensions: { notes: { version: 2, state: { wrong: true } } } }),
      (err: unknown) => {
        assert.ok(err instanceof SessionStateError);
        assert.match(err.message, /"notes" refused its saved state: expected \{ items: \[\] \}/);
        return true;
      },
    );
    await assert.rejects(agent().loadSession("not a session"), SessionStateError);
  });
});
