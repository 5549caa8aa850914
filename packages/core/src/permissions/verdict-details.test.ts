// Who decided a tool call and why, exactly: the manager's rules and default, a tool's own
// permission, and a policy's answer (its source, its reason, a malformed or missing one).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PermissionManager } from "./permission-manager.js";
import { askPolicy, policyApplies, policySource, strictest, type Policy, type PolicyRequest } from "./policy.js";
import type { PermissionDecision } from "./decision.js";

describe("the permission manager's rules", () => {
  test("an exact rule wins over a pattern that also matches and is longer", () => {
    const manager = new PermissionManager({ rules: { "read*": "deny", read: "allow" } });
    assert.deepEqual(manager.resolve("read"), { decision: "allow", source: "manager", reason: 'rule for "read"' });
    assert.deepEqual(manager.resolve("read_file"), { decision: "deny", source: "manager", reason: 'rule for "read*"' });
  });

  test("setting a pattern again replaces its rule, either way", () => {
    const manager = new PermissionManager({ rules: { "net_*": "deny" } });
    manager.set("net_*", "allow");
    assert.equal(manager.resolve("net_fetch").decision, "allow");
    manager.set("net_*", "ask");
    assert.equal(manager.resolve("net_fetch").decision, "ask");
  });

  test("the default decides without a rule: its reason says so, and why a tool's own permission did not widen it", () => {
    const manager = new PermissionManager({ default: "ask" });
    assert.deepEqual(manager.resolve("bash"), { decision: "ask", source: "manager", reason: "default" });
    assert.deepEqual(
      manager.resolve("bash", "ask"),
      { decision: "ask", source: "manager", reason: "default" },
      "the tool asks for the default itself",
    );
    assert.deepEqual(manager.resolve("bash", "allow"), {
      decision: "ask",
      source: "manager",
      reason: 'default ask (the tool\'s own "allow" cannot widen it; add a rule for "bash")',
    });
  });

  test("a tool's own stricter permission decides, named as the tool's", () => {
    const manager = new PermissionManager();
    assert.deepEqual(manager.resolve("rm", "deny"), {
      decision: "deny",
      source: "tool",
      reason: '"rm" is registered as deny',
    });
    assert.deepEqual(manager.resolve("rm", "ask"), {
      decision: "ask",
      source: "tool",
      reason: '"rm" is registered as ask',
    });
  });
});

describe("strictest keeps the strictest verdict, the first on a tie", () => {
  const verdict = (decision: PermissionDecision["decision"], source: string): PermissionDecision => ({
    decision,
    source,
  });
  test("deny over ask over allow, in either order", () => {
    assert.equal(strictest(verdict("allow", "a"), verdict("ask", "b")).source, "b");
    assert.equal(strictest(verdict("ask", "a"), verdict("allow", "b")).source, "a");
    assert.equal(strictest(verdict("ask", "a"), verdict("deny", "b")).source, "b");
    assert.equal(strictest(verdict("deny", "a"), verdict("ask", "b")).source, "a");
  });

  test("a tie keeps the first", () => {
    for (const decision of ["allow", "ask", "deny"] as const)
      assert.equal(strictest(verdict(decision, "first"), verdict(decision, "second")).source, "first");
  });
});

describe("a policy's answer", () => {
  const request: PolicyRequest = {
    action: "tool_call",
    toolCall: { id: "c1", name: "echo", input: {} },
    phase: "authorize",
    runId: "run_1",
  };
  const policy = (decide: Policy["decide"], extra: Partial<Policy> = {}): Policy => ({ id: "guard", decide, ...extra });

  test("a bare verdict gets a reason naming the policy and its extension", async () => {
    for (const decision of ["allow", "ask", "deny"] as const) {
      assert.deepEqual(
        await askPolicy(
          policy(() => decision),
          request,
          "acme",
        ),
        {
          decision: {
            decision,
            source: "policy:guard@acme",
            reason: `policy "guard" of extension "acme" said ${decision}`,
          },
        },
      );
    }
  });

  test("the application's own policy is named without an extension", async () => {
    assert.deepEqual(
      await askPolicy(
        policy(() => "deny"),
        request,
      ),
      { decision: { decision: "deny", source: "policy:guard", reason: 'policy "guard" said deny' } },
    );
    assert.equal(policySource("guard", undefined), "policy:guard");
    const failed = await askPolicy(
      policy(() => "perhaps" as never),
      request,
    );
    assert.match(
      failed.decision.reason ?? "",
      /^policy "guard" answered "perhaps", not allow\/ask\/deny; denied \(fail closed\)$/,
    );
  });

  test("a verdict with its own reason keeps it, and a deny is no failure", async () => {
    const answer = await askPolicy(
      policy(() => ({ decision: "deny", reason: "wire transfers are off" })),
      request,
      "acme",
    );
    assert.deepEqual(answer, {
      decision: { decision: "deny", source: "policy:guard@acme", reason: "wire transfers are off" },
    });
    assert.equal(answer.error, undefined);
  });

  test("no verdict at all is a malformed answer, denied", async () => {
    for (const nothing of [undefined, null]) {
      const answer = await askPolicy(
        policy(() => nothing as never),
        request,
        "acme",
      );
      assert.equal(answer.decision.decision, "deny");
      assert.match(answer.decision.reason ?? "", new RegExp(`answered ${String(nothing)}, not allow/ask/deny`));
      assert.ok(answer.error);
    }
  });

  test("the time limit's timer is cleared once the policy answered", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    await askPolicy(
      policy(() => "allow", { timeoutMs: 60_000 }),
      request,
    );
    await askPolicy(
      policy(
        () => {
          throw new Error("broken");
        },
        { timeoutMs: 60_000 },
      ),
      request,
    );
    assert.equal(timers(), before, "no timer left running: a process would otherwise stay up for a minute");
  });

  test("actions: absent or empty rules on every tool, a list only on the tools it names", () => {
    assert.equal(
      policyApplies(
        policy(() => "deny"),
        "echo",
      ),
      true,
    );
    assert.equal(
      policyApplies(
        policy(() => "deny", { actions: [] }),
        "echo",
      ),
      true,
    );
    assert.equal(
      policyApplies(
        policy(() => "deny", { actions: ["rm"] }),
        "echo",
      ),
      false,
    );
    assert.equal(
      policyApplies(
        policy(() => "deny", { actions: ["rm", "echo"] }),
        "echo",
      ),
      true,
    );
  });
});
