// MCP configuration files: which exist, how their servers merge (the user's win), and every way a
// file is refused: too large, not JSON, the wrong shape, changed since the project was trusted.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { projectMcpFiles, readMcpFiles, userMcpFiles, type McpConfigFile } from "./mcp-config.js";
import { pinProject } from "./project-digest.js";
import { tempFolders, writeFileIn } from "@harnessx/core/test-support";

const folders = tempFolders("hx-mcp-");
const MIB = 1024 * 1024;

const servers = (map: Record<string, unknown>) => JSON.stringify({ mcpServers: map });
const userFile = (text: string): McpConfigFile => ({
  path: writeFileIn(join(folders.home, "mcp.json"), text),
  level: "user",
});
const projectFile = (text: string): McpConfigFile => ({
  path: writeFileIn(join(folders.project, ".mcp.json"), text),
  level: "project",
});
/** A JSON file of exactly `bytes` bytes naming one server (padded with spaces). */
const sized = (bytes: number) => {
  const text = servers({ big: { command: "x" } });
  return text + " ".repeat(bytes - text.length);
};
const reasons = (files: McpConfigFile[]) => readMcpFiles(files).invalid.map((entry) => entry.reason);

describe("finding MCP configuration files", () => {
  test("the user's mcp.json, when it is a file", () => {
    assert.deepEqual(userMcpFiles(folders.home), []);
    mkdirSync(join(folders.home, "mcp.json"), { recursive: true });
    assert.deepEqual(userMcpFiles(folders.home), [], "a folder named mcp.json is not a configuration");
    const other = join(folders.root, "other-home");
    const path = writeFileIn(join(other, "mcp.json"), "{}");
    assert.deepEqual(userMcpFiles(other), [{ path, level: "user" }]);
  });

  test("a project's .mcp.json then .harnessx/mcp.json, those that exist", () => {
    assert.deepEqual(projectMcpFiles(folders.project), []);
    const inner = writeFileIn(join(folders.project, ".harnessx", "mcp.json"), "{}");
    assert.deepEqual(projectMcpFiles(folders.project), [{ path: inner, level: "project" }]);
    const shared = writeFileIn(join(folders.project, ".mcp.json"), "{}");
    assert.deepEqual(projectMcpFiles(folders.project), [
      { path: shared, level: "project" },
      { path: inner, level: "project" },
    ]);
  });
});

describe("reading MCP configuration files", () => {
  test("servers keep their entry, file and level; a name the user took is left out of the project's", () => {
    const user = userFile(servers({ docs: { command: "user-docs" } }));
    const project = projectFile(servers({ docs: { command: "evil" }, lint: { command: "lint" } }));
    const { servers: found, invalid } = readMcpFiles([user, project]);
    assert.deepEqual(found, {
      docs: { config: { command: "user-docs" }, source: user.path, level: "user" },
      lint: { config: { command: "lint" }, source: project.path, level: "project" },
    });
    assert.deepEqual(invalid, [
      { kind: "mcp", path: project.path, level: "project", reason: `server "docs" is already defined by ${user.path}` },
    ]);
  });

  test("clean files list nothing invalid", () => {
    assert.deepEqual(readMcpFiles([userFile(servers({ a: {} }))]).invalid, []);
  });

  test("a file of exactly 1 MiB is read; one byte more is refused with its size", () => {
    const exact = userFile(sized(MIB));
    assert.deepEqual(Object.keys(readMcpFiles([exact]).servers), ["big"]);
    const over = userFile(sized(MIB + 1));
    const { servers: found, invalid } = readMcpFiles([over]);
    assert.deepEqual(found, {});
    assert.deepEqual(invalid, [
      {
        kind: "mcp",
        path: over.path,
        level: "user",
        reason: `it is ${MIB + 1} bytes; an MCP configuration may hold at most ${MIB}`,
      },
    ]);
  });

  test("a file that cannot be read is listed with the system's reason", () => {
    const missing: McpConfigFile = { path: join(folders.home, "mcp.json"), level: "user" };
    const { invalid } = readMcpFiles([missing]);
    assert.equal(invalid.length, 1);
    assert.equal(invalid[0].path, missing.path);
    assert.match(invalid[0].reason, /ENOENT/);
  });

  test("text that is not JSON is refused with the parser's reason", () => {
    const [reason] = reasons([userFile("{ not json")]);
    assert.match(reason, /^it is not valid JSON \(.+\)$/);
  });

  for (const [what, text] of [
    ["null", "null"],
    ["an array", "[]"],
    ["an object without mcpServers", "{}"],
    ["mcpServers null", '{"mcpServers":null}'],
    ["mcpServers a string", '{"mcpServers":"ab"}'],
    ["mcpServers an array", '{"mcpServers":[{"command":"x"}]}'],
  ]) {
    test(`${what} is refused as the wrong shape, and names no server`, () => {
      const file = userFile(text);
      assert.deepEqual(readMcpFiles([file]), {
        servers: {},
        invalid: [
          {
            kind: "mcp",
            path: file.path,
            level: "user",
            reason: 'field "mcpServers" must be an object of servers by name',
          },
        ],
      });
    });
  }
});

describe("reading a trusted project's MCP files through its pin", () => {
  test("a project file as pinned is read; the user's file is read directly, not through the pin", () => {
    const project = projectFile(servers({ lint: {} }));
    const pin = pinProject(folders.project);
    const user = userFile(servers({ docs: {} }));
    const { servers: found, invalid } = readMcpFiles([user, project], pin);
    assert.deepEqual(invalid, []);
    assert.deepEqual(Object.keys(found), ["docs", "lint"]);
  });

  test("without a pin a project file is read directly", () => {
    const project = projectFile(servers({ lint: {} }));
    assert.deepEqual(readMcpFiles([project]), {
      servers: { lint: { config: {}, source: project.path, level: "project" } },
      invalid: [],
    });
  });

  test("a project file edited since the check is refused, not served", () => {
    const project = projectFile(servers({ lint: {} }));
    const pin = pinProject(folders.project);
    writeFileSync(project.path, servers({ lint: {}, evil: { command: "curl" } }));
    const { servers: found, invalid } = readMcpFiles([project], pin);
    assert.deepEqual(found, {});
    assert.equal(invalid.length, 1);
    assert.match(invalid[0].reason, /was edited since the project/);
  });

  test("a project file added since the check is refused as added", () => {
    const pin = pinProject(folders.project);
    const project = projectFile(servers({ evil: {} }));
    const { servers: found, invalid } = readMcpFiles([project], pin);
    assert.deepEqual(found, {});
    assert.equal(invalid.length, 1);
    assert.match(invalid[0].reason, /was added since the project/);
  });

  test("a pinned project file over 1 MiB is refused by its pinned size", () => {
    const project = projectFile(sized(MIB + 1));
    const pin = pinProject(folders.project);
    assert.deepEqual(
      readMcpFiles([project], pin).invalid.map((entry) => entry.reason),
      [`it is ${MIB + 1} bytes; an MCP configuration may hold at most ${MIB}`],
    );
  });
});
