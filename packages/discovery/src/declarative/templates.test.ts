// Prompt templates: prompts/*.md through discover(), listed with their parameters, rendered into user input.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { Agent } from "@harnessx/core";
import { discover } from "../discovery/discover.js";
import { TrustStore } from "../discovery/trust-store.js";
import { TemplateError } from "@harnessx/core";
import { defineExtension } from "@harnessx/core/extension";
import { ScriptedProvider } from "@harnessx/core";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-templates-");

async function agentFromDisk(): Promise<Agent> {
  const { extensions } = await discover({
    cwd: folders.project,
    userDir: folders.home,
    trustStore: new TrustStore(join(folders.home, "trust.json")),
  });
  return new Agent({ provider: new ScriptedProvider([{ text: "done" }]), extensions });
}

describe("prompt templates from prompts/*.md", () => {
  test("listed with their parameters and rendered with them", async () => {
    const path = writeFileIn(
      join(folders.home, "prompts", "incident.md"),
      "---\ndescription: Open an incident review\n---\nReview incident {{ id }} in {{service}}; page {{owner}} about {{id}}.\n",
    );
    const agent = await agentFromDisk();
    assert.deepEqual(agent.templates.list(), [
      {
        name: "incident",
        description: "Open an incident review",
        parameters: ["id", "service", "owner"],
        extension: "prompt-templates",
        source: path,
      },
    ]);
    assert.equal(
      agent.templates.render("incident", { id: 7, service: "billing", owner: "ana" }),
      "Review incident 7 in billing; page ana about 7.",
    );
  });

  test("a missing or unknown parameter is a TemplateError naming it; a value is never expanded again", async () => {
    writeFileIn(join(folders.home, "prompts", "greet.md"), "Hello {{name}}.\n");
    const agent = await agentFromDisk();
    assert.throws(
      () => agent.templates.render("greet"),
      (e: unknown) =>
        e instanceof TemplateError && e.parameter === "name" && /needs the parameter "name"/.test(e.message),
    );
    assert.throws(
      () => agent.templates.render("greet", { name: "a", nmae: "b" }),
      (e: unknown) => e instanceof TemplateError && e.parameter === "nmae",
    );
    assert.throws(() => agent.templates.render("nope"), /no template is named "nope"; the templates are: greet/);
    assert.equal(agent.templates.render("greet", { name: "{{name}}" }), "Hello {{name}}.");
  });

  test("extensions register templates in code; the contribution records them", () => {
    const agent = new Agent({
      provider: new ScriptedProvider([]),
      extensions: [
        defineExtension("ops", (ctx) => void ctx.registerTemplate({ name: "triage", body: "Triage {{queue}}." })),
      ],
    });
    assert.deepEqual(agent.contributions()[0]!.templates, [
      { name: "triage", parameters: ["queue"], extension: "ops" },
    ]);
    assert.equal(agent.templates.render("triage", { queue: "payments" }), "Triage payments.");
  });
});
