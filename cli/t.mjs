import { DuckDBInstance } from "@duckdb/node-api";
const i = await DuckDBInstance.create(":memory:");
const c = await i.connect();
await c.run("CREATE TABLE a AS SELECT range AS id FROM range(10)");
await c.run("CREATE TABLE big AS SELECT range % 10 AS id, range AS x FROM range(100)");
await c.run("CREATE VIEW v AS SELECT a.id, (SELECT max(x) FROM big WHERE big.id = a.id) AS extra FROM a");
await c.run("CREATE VIEW w AS SELECT a.id, j.m AS extra FROM a LEFT JOIN (SELECT id, max(x) m FROM big GROUP BY id) j USING (id)");
for (const v of ["v", "w"]) { const r = await c.runAndReadAll(`EXPLAIN SELECT count(id) FROM ${v}`); console.log(v, /JOIN|big/i.test(r.getRowsJS().map(x=>x[1]).join("")) ? "join kept" : "join pruned"); }
