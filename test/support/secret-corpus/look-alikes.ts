// Text that looks like a secret and is not: what a coding agent reads all day (hashes, ids,
// lockfiles, ordinary command lines and config) must reach the recording unchanged.
import { createHash, randomUUID } from "node:crypto";
import { Material } from "./random.js";

const m = new Material(7);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const sha512b64 = (text: string) => createHash("sha512").update(text).digest("base64");
const digests = Array.from({ length: 6 }, (_, i) => sha256(`file ${i}`));
const certificateBody = Array.from({ length: 8 }, () => m.b64(64))
  .concat(`${m.b64(20)}==`)
  .join("\n");

/** Each must survive the default policy unchanged. */
export const LOOK_ALIKES: readonly string[] = [
  // Hashes and ids.
  `commit ${sha256("a").slice(0, 40)}\nAuthor: Dev <dev@localhost>\n\n    fix the build`,
  `${sha256("b").slice(0, 7)} fix(ci): retry flaky step\n${sha256("c").slice(0, 7)} chore: bump deps`,
  randomUUID(),
  `request ${randomUUID()} took 12 ms`,
  digests.join("\n"),
  digests.map((d, i) => `${d}  dist/chunk-${i}.js`).join("\n"),
  `image: registry.example.com/app@sha256:${digests[0]}`,
  `"integrity": "sha512-${sha512b64("left-pad")}"`,
  `      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n      "integrity": "sha512-${sha512b64("lp")}",\n      "integrity": "sha512-${sha512b64("lq")}",\n      "integrity": "sha512-${sha512b64("lr")}"`,
  `left-pad@^1.3.0:\n  version "1.3.0"\n  resolved "https://registry.yarnpkg.com/left-pad/-/left-pad-1.3.0.tgz#${sha256("y").slice(0, 40)}"`,
  // Base64 of ordinary data.
  `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==`,
  `echo ${Buffer.from("hello from the build server").toString("base64")} | base64 -d`,
  `${m.b64(64)}\n${m.b64(40)}=`,
  `-----BEGIN CERTIFICATE-----\n${certificateBody}\n-----END CERTIFICATE-----`,
  `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${m.b64(43)} dev@laptop`,
  // Ordinary command lines.
  `$ vault login --token-file /run/secrets/vault --method=token`,
  `$ docker login --password-stdin -u ci registry.example.com`,
  `$ psql --no-password -h db -U app`,
  `$ docker run -p 8080:80 -u 1000:1000 nginx`,
  `$ git push -u origin main`,
  `$ sort -u names.txt | ssh -p 2222 backup@host 'cat > names.txt'`,
  `$ node bin/tool.js --api-key-env SERVICE_KEY --token-ttl 3600`,
  // Counts, flags and words next to sensitive names.
  `{"inputTokens":128,"outputTokens":64,"cacheReadTokens":0}`,
  `maxTokens=4096 inputTokens=128 total_tokens: 300`,
  `tokens: 1523`,
  `{"auth": true, "authMode": "none"}`,
  `auth: basic`,
  `Basic usage: run the tool with --help.`,
  `Password must be at least 12 characters.`,
  `The tokenizer splits text into tokens.`,
  `<username>deploy</username>\n<passwordPolicy>strict</passwordPolicy>`,
  // URLs without credentials.
  `remote: https://gitlab/group/repo.git`,
  `postgres://db:5432/orders`,
  `amqp://rabbit:5672/vhost`,
  `https://deploy@git.example.com/team/app.git`,
  `http://localhost:3000/search?sort=asc&page=2#results`,
  // Model names, paths, timestamps.
  `claude-3-5-sonnet-20241022 gpt-4o-mini-2024-07-18`,
  `/home/app/src/index.ts:42:7`,
  `2026-12-02T03:04:00.000Z`,
];
