// An extension's saved state: stored under its name with its state version, only when it
// returns something; read back only by an extension of the same version, refused with the path
// of what is wrong.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { SessionStateError } from "../errors.js";
import { ScriptedProvider } from "../providers/scripted.js";
import { defineExtension, type ExtensionLike } from "./extension.js";

const agentOf = (...extensions: ExtensionLike[]) => new Agent({ provider: new ScriptedProvider([]), extensions });
const session = (extensions: Record<string, unknown>) => ({
  format: "harnessx.session",
  version: 1,
  sessionId: "s",
  messages: [],
  todos: [],
  extensions,
});

describe("saving", () => {
  test("state is stored with the extension's version: declared, or 1 for any form that declares none", () => {
    const versioned = defineExtension({ name: "v2", stateVersion: 2, onSaveSession: () => ({ n: 2 }) });
    const defined = defineExtension({ name: "v1", onSaveSession: () => ({ n: 1 }) });
    const plain = { name: "plain", onSaveSession: () => "p" };
    const silent = defineExtension({ name: "silent", onSaveSession: () => undefined });
    assert.deepEqual(agentOf(versioned, defined, plain, silent).saveSession().extensions, {
      v2: { version: 2, state: { n: 2 } },
      v1: { version: 1, state: { n: 1 } },
      plain: { version: 1, state: "p" },
    });
  });

  test("state that is not JSON is refused at its path", () => {
    const dated = defineExtension({ name: "dated", onSaveSession: () => ({ when: new Date(0) }) as never });
    assert.throws(
      () => agentOf(dated).saveSession(),
      (err: unknown) => err instanceof SessionStateError && err.path === "$.extensions.dated.state.when",
    );
  });
});

describe("loading", () => {
  function loader(name = "notes", stateVersion?: number) {
    const loaded: unknown[] = [];
    const ext = {
      name,
      ...(stateVersion === undefined ? {} : { stateVersion }),
      onLoadSession: (_ctx: unknown, state: unknown) => void loaded.push(state),
    };
    return { ext, loaded };
  }

  test("each extension reads its own entry at its version; a plain object's version is 1", async () => {
    const { ext, loaded } = loader();
    const other = loader("other", 3);
    await agentOf(ext, other.ext).loadSession(
      session({ notes: { version: 1, state: ["a"] }, other: { version: 3, state: "x" } }),
    );
    assert.deepEqual([loaded, other.loaded], [[["a"]], ["x"]]);
  });

  test("an extension with no entry, or with no onLoadSession, is left alone", async () => {
    const { ext, loaded } = loader();
    await agentOf(ext).loadSession(session({}));
    assert.deepEqual(loaded, []);
    const deaf = agentOf(defineExtension({ name: "deaf", install: () => {} }));
    await assert.doesNotReject(deaf.loadSession(session({ deaf: { version: 1, state: 1 } })));
    await assert.doesNotReject(deaf.loadSession(session({ deaf: "not even an entry" })));
  });

  for (const [label, entry] of [
    ["a number", 5],
    ["null", null],
    ["no state", { version: 1 }],
    ["a version that is not a number", { version: "1", state: {} }],
  ] as const) {
    test(`an entry that is ${label} is refused at the extension's path`, async () => {
      const { ext, loaded } = loader();
      await assert.rejects(agentOf(ext).loadSession(session({ notes: entry })), (err: unknown) => {
        assert.ok(err instanceof SessionStateError, String(err));
        assert.match(err.message, /extension "notes": saved state must be \{ version: number, state \}/);
        assert.equal(err.path, "$.extensions.notes");
        return true;
      });
      assert.deepEqual(loaded, []);
    });
  }

  test("another version is refused, naming both", async () => {
    const { ext, loaded } = loader("notes", 2);
    await assert.rejects(agentOf(ext).loadSession(session({ notes: { version: 1, state: [] } })), (err: unknown) => {
      assert.ok(err instanceof SessionStateError);
      assert.match(err.message, /extension "notes": saved state has version 1, this extension reads version 2/);
      assert.equal(err.path, "$.extensions.notes.version");
      return true;
    });
    assert.deepEqual(loaded, []);
  });

  test("an extension that refuses its state fails the load with its reason and the cause", async () => {
    const cause = new Error("unknown note format");
    const picky = {
      name: "picky",
      onLoadSession: () => {
        throw cause;
      },
    };
    await assert.rejects(agentOf(picky).loadSession(session({ picky: { version: 1, state: 0 } })), (err: unknown) => {
      assert.ok(err instanceof SessionStateError);
      assert.match(err.message, /extension "picky" refused its saved state: unknown note format/);
      assert.equal(err.path, "$.extensions.picky.state");
      assert.equal(err.cause, cause);
      return true;
    });
  });
});
