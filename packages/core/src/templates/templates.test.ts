// Prompt templates: prompts/*.md through discover(), listed with their parameters, rendered into user input.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import { Agent } from "../engine/agent.js";
import { discover } from "../discovery/discover.js";
import { TrustStore } from "../discovery/trust-store.js";
import { TemplateError } from "../errors.js";
import { defineExtension } from "../extensions/extension.js";
import { ScriptedProvider } from "../providers/scripted.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "hx-templates-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function agentFromDisk(): Promise<Agent> {
  const home = join(root, "home");
  const { extensions } = await discover({ cwd: join(root, "project"), userDir: home, trustStore: new TrustStore(join(home, "trust.json")) });
  return new Agent({ provider: new ScriptedProvider([{ text: "done" }]), extensions });
}

describe("prompt templates from prompts/*.md", () => {
  test("listed with their parameters and rendered with them", async () => {
    const path = write(join(root, "home", "prompts", "incident.md"), "---\ndescription: Open an incident review\n---\nReview incident {{ id }} in {{service}}; page {{owner}} about {{id}}.\n");
    const agent = await agentFromDisk();
    assert.deepEqual(agent.templates.list(), [{ name: "incident", description: "Open an incident review", parameters: ["id", "service", "owner"], extension: "prompt-templates", source: path }]);
    assert.equal(agent.templates.render("incident", { id: 7, service: "billing", owner: "ana" }), "Review incident 7 in billing; page ana about 7.");
  });

  test("a missing or unknown parameter is a TemplateError naming it; a value is never expanded again", async () => {
    write(join(root, "home", "prompts", "greet.md"), "Hello {{name}}.\n");
    const agent = await agentFromDisk();
    assert.throws(() => agent.templates.render("greet"), (e: unknown) => e instanceof TemplateError && e.parameter === "name" && /needs the parameter "name"/.test(e.message));
    assert.throws(() => agent.templates.render("greet", { name: "a", nmae: "b" }), (e: unknown) => e instanceof TemplateError && e.parameter === "nmae");
    assert.throws(() => agent.templates.render("nope"), /no template is named "nope"; the templates are: greet/);
    assert.equal(agent.templates.render("greet", { name: "{{name}}" }), "Hello {{name}}.");
  });

  test("extensions register templates in code; the contribution records them", () => {
    const agent = new Agent({ provider: new ScriptedProvider([]), extensions: [defineExtension("ops", (ctx) => void ctx.registerTemplate({ name: "triage", body: "Triage {{queue}}." }))] });
    assert.deepEqual(agent.contributions()[0].templates, [{ name: "triage", parameters: ["queue"], extension: "ops" }]);
    assert.equal(agent.templates.render("triage", { queue: "payments" }), "Triage payments.");
  });
});
