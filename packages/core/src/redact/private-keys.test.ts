import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { Redactor } from "./redactor.js";

const redactor = new Redactor();
const pem = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  publicKeyEncoding: { type: "spki", format: "pem" },
  privateKeyEncoding: { type: "pkcs8", format: "pem" },
}).privateKey;
const lines = pem.trim().split("\n");
const body = lines.slice(1, -1);
/** Body lines (whole ones: a cut line is shorter) that survived. */
const survivors = (out: string) => body.filter((line) => line.length >= 16 && out.includes(line.slice(0, 16)));

describe("a private key is secret from its BEGIN line, whatever cut it", () => {
  test("cut before its END line: everything after BEGIN is hidden, to the end of the text", () => {
    for (const keep of [2, 5, 14, 27]) {
      const cut = `before\n${lines.slice(0, keep).join("\n")}`;
      const out = redactor.redactText(cut);
      assert.deepEqual(survivors(out), [], `cut after ${keep} lines: ${out}`);
      assert.ok(out.startsWith("before\n"), "the text before the block stays");
    }
  });

  test("cut inside a JSON string, the block ends at the string's closing quote: the fields after it stay", () => {
    const text = `{"private_key":"${lines.slice(0, 9).join("\\n")}","client_email":"svc@demo.iam"}`;
    const out = redactor.redactText(text);
    assert.deepEqual(survivors(out), []);
    assert.match(out, /"client_email":"\[REDACTED:email\]"/);
  });

  test("an END line without its BEGIN takes the key lines before it, and only those", () => {
    const tail = `[lines 16-28 of 28 (text)]\n${lines.slice(15).join("\n")}\nafter`;
    const out = redactor.redactText(tail);
    assert.deepEqual(survivors(out), []);
    assert.ok(out.startsWith("[lines 16-28 of 28 (text)]\n") && out.endsWith("\nafter"), out);
  });

  test("key lines as search hits (grep-style line numbers) are hidden", () => {
    const hits = body
      .slice(9, 12)
      .map((line, i) => `${11 + i}${i === 1 ? ":" : "-"}${line}`)
      .join("\n");
    const out = redactor.redactText(`[1 match]\n${hits}\n--\n40:plain text`);
    assert.deepEqual(survivors(out), []);
    assert.ok(out.endsWith("--\n40:plain text"));
  });

  test("every private key label: RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP, SSH2; a public block is not one", () => {
    const line = body[3];
    for (const label of [
      "RSA PRIVATE KEY",
      "EC PRIVATE KEY",
      "DSA PRIVATE KEY",
      "OPENSSH PRIVATE KEY",
      "ENCRYPTED PRIVATE KEY",
      "PGP PRIVATE KEY BLOCK",
      "ANY PRIVATE KEY",
    ]) {
      assert.ok(!redactor.redactText(`-----BEGIN ${label}-----\n${line}\n`).includes(line.slice(0, 20)), label);
    }
    assert.ok(!redactor.redactText(`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n${line}`).includes(line.slice(0, 20)));
    const cert = `-----BEGIN CERTIFICATE-----\n${body.slice(0, 5).join("\n")}\n-----END CERTIFICATE-----`;
    assert.equal(redactor.redactText(cert), cert, "a certificate is public");
  });

  test("PuTTY: the private lines to the MAC are hidden, the public lines stay", () => {
    const text = `PuTTY-User-Key-File-3: ssh-rsa\nPublic-Lines: 2\n${body[0]}\n${body[1]}\nPrivate-Lines: 3\n${body[5]}\n${body[6]}\n${body[7]}\nPrivate-MAC: ${"ab".repeat(32)}\n`;
    const out = redactor.redactText(text);
    assert.ok(out.includes(body[0]) && out.includes(body[1]), "public lines stay");
    assert.deepEqual(
      [body[5], body[6], body[7]].filter((l) => out.includes(l)),
      [],
    );
  });

  test("a PEM key base64-encoded again (kubeconfig client-key-data) is hidden; an encoded certificate is not", () => {
    const encoded = Buffer.from(pem).toString("base64");
    assert.ok(!redactor.redactText(`client-key-data: ${encoded}`).includes(encoded.slice(30, 60)));
    const cert = Buffer.from(`-----BEGIN CERTIFICATE-----\n${body[0]}\n-----END CERTIFICATE-----\n`).toString("base64");
    assert.equal(redactor.redactText(`client-certificate-data: ${cert}`), `client-certificate-data: ${cert}`);
  });
});

describe("key lines without a header: runs of three or more", () => {
  const run = (n: number, width = 64) => body.slice(0, n).map((line) => (line + line).slice(0, width));

  test("three full lines are key material, two are not (a search hit shows three)", () => {
    const three = run(3).join("\n");
    assert.deepEqual(
      run(3).filter((line) => redactor.redactText(`x\n${three}\ny`).includes(line)),
      [],
    );
    const two = `x\n${run(2).join("\n")}\ny`;
    assert.equal(redactor.redactText(two), two);
  });

  test("armor widths 64, 70 and 76 count; 63 and 65 do not", () => {
    for (const width of [64, 70, 76])
      assert.notEqual(redactor.redactText(run(4, width).join("\n")), run(4, width).join("\n"), `width ${width}`);
    for (const width of [63, 65])
      assert.equal(redactor.redactText(run(4, width).join("\n")), run(4, width).join("\n"), `width ${width}`);
  });

  test("the shorter last line of a body goes with it", () => {
    const text = `${run(4).join("\n")}\n${body[24]}`;
    assert.ok(!redactor.redactText(text).includes(body[24]));
  });

  test("lines escaped in JSON (\\n) count as lines", () => {
    const text = JSON.stringify({ note: run(4).join("\n") });
    assert.deepEqual(
      run(4).filter((line) => redactor.redactText(text).includes(line)),
      [],
    );
  });

  test("hex digests, one per line (checksum files), are not key material", () => {
    const digests = Array.from(
      { length: 6 },
      (_, i) => "0123456789abcdef".repeat(4).slice(i) + "0123456789abcdef".slice(0, i),
    ).join("\n");
    assert.equal(redactor.redactText(digests), digests);
  });
});
