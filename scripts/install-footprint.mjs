#!/usr/bin/env node
// What an app's `npm install` brings: packs the published workspaces (build first), installs
// `harnessx` from the tarballs into new app folders outside the repository, and prints the size of
// each app's node_modules, its largest packages and families (npm scopes), and the packages npm
// warns EBADENGINE about on this Node. Two apps:
//   quickstart  the README's `npm install harnessx`, nothing else
//   traced      + the OpenTelemetry SDK peers `setupTelemetry` needs and one provider SDK (openai)
// Usage: node scripts/install-footprint.mjs [--top=15] [--keep]   (--keep leaves the folders)
import { lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import Table from "cli-table3";
import { register } from "tsx/esm/api";

// One source of truth with the packed-install test: its TypeScript helper packs and installs.
register();
const { packWorkspaces, harnessxTarballs, installApp, installed, OTEL_PEERS } = await import(
  "../test/support/packed-app.ts"
);

const args = process.argv.slice(2);
const top = Number(args.find((a) => a.startsWith("--top="))?.slice("--top=".length) ?? 15);
const keep = args.includes("--keep");

/** Bytes under `path` as `du -sb` counts them (apparent sizes, folders included), leaving out `skip`. */
function bytes(path, skip) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = stat.size;
  for (const name of readdirSync(path)) if (join(path, name) !== skip) total += bytes(join(path, name));
  return total;
}

/** Every installed package under a node_modules folder, nested copies included, each without its own node_modules. */
function packages(nodeModules, out = []) {
  let names;
  try {
    names = readdirSync(nodeModules);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const scoped = name.startsWith("@") ? readdirSync(join(nodeModules, name)).map((n) => `${name}/${n}`) : [name];
    for (const pkg of scoped) {
      const dir = join(nodeModules, pkg);
      out.push({ name: pkg, bytes: bytes(dir, join(dir, "node_modules")) });
      packages(join(dir, "node_modules"), out);
    }
  }
  return out;
}

/** The packages npm's output names in EBADENGINE warnings. */
function badEngines(stderr) {
  const names = new Set();
  for (const block of stderr.split(/npm warn EBADENGINE Unsupported engine/).slice(1)) {
    const pkg = /package: '([^']+)'/.exec(block)?.[1];
    const required = /required: \{ node: '([^']+)'/.exec(block)?.[1];
    if (pkg) names.add(`${pkg} (node ${required ?? "?"})`);
  }
  return [...names].sort();
}

const mb = (n) => (n / 2 ** 20).toFixed(1);
function sumBy(list, key) {
  const totals = new Map();
  for (const p of list) totals.set(key(p), (totals.get(key(p)) ?? 0) + p.bytes);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const work = mkdtempSync(join(tmpdir(), "hx-footprint-"));
const tarballs = harnessxTarballs(packWorkspaces(join(work, "packs")));
const apps = [
  { name: "quickstart", packages: tarballs },
  { name: "traced", packages: [...tarballs, ...OTEL_PEERS.map(installed), installed("openai")] },
];
const results = [];
for (const app of apps) {
  const folder = join(work, app.name);
  const install = installApp(folder, app.packages);
  const nodeModules = join(folder, "node_modules");
  const du = (...flags) => Number(spawnSync("du", [...flags, nodeModules], { encoding: "utf8" }).stdout.split("\t")[0]);
  const list = packages(nodeModules);
  results.push({
    ...app,
    folder,
    total: du("-sb"),
    disk: du("-s", "--block-size=1"),
    count: list.length,
    list,
    badEngines: badEngines(install.stderr),
  });
}

console.log(`Node ${process.version}, ${tarballs.length} harnessx tarballs${keep ? `, apps kept in ${work}` : ""}\n`);
// Bytes in files (du -sb), and blocks on disk (du -s: what `du -sh` and a disk quota count; many small files cost more).
const summary = new Table({
  head: ["app", "bytes (du -sb)", "on disk (du -s)", "packages", "EBADENGINE"],
  style: { head: [], border: [] },
});
for (const r of results)
  summary.push([r.name, `${mb(r.total)} MiB`, `${mb(r.disk)} MiB`, r.count, r.badEngines.length]);
console.log(summary.toString());
for (const r of results) {
  const table = new Table({
    head: [`${r.name}: top packages`, "MiB", "family (scope)", "MiB"],
    style: { head: [], border: [] },
  });
  const byName = sumBy(r.list, (p) => p.name);
  const byFamily = sumBy(r.list, (p) => (p.name.startsWith("@") ? p.name.split("/")[0] : p.name));
  for (let i = 0; i < top; i++)
    table.push([
      byName[i]?.[0] ?? "",
      byName[i] ? mb(byName[i][1]) : "",
      byFamily[i]?.[0] ?? "",
      byFamily[i] ? mb(byFamily[i][1]) : "",
    ]);
  console.log(`\n${table.toString()}`);
  console.log(
    r.badEngines.length
      ? `EBADENGINE on ${process.version}:\n  ${r.badEngines.join("\n  ")}`
      : `EBADENGINE on ${process.version}: none`,
  );
}
if (!keep) rmSync(work, { recursive: true, force: true });
