import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { privateKeyBlocks, PRIVATE_KEY_SHAPES } from "./private-keys.js";

// Fixed fake key lines: base64 shape, no real key behind them.
const B1 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7fakeFAKEfake";
const B2 = "q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c2v3b4n5m6Q7W8E9R0T1Y2";
const B3 = "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXU=";

/** The one span found, as the text it covers. */
function only(text: string): string {
  const spans = privateKeyBlocks(text);
  assert.equal(spans.length, 1, `one span expected: ${JSON.stringify(spans)}`);
  assert.equal(spans[0].name, "privatekey");
  return text.slice(spans[0].start, spans[0].end);
}

describe("a PEM key is secret from the BEGIN line's first dash to the END line's last dash", () => {
  test("5-dash, 4-dash with spaces (SSH2) and PGP BLOCK labels: the text around the block is kept", () => {
    for (const [begin, end] of [
      ["-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----"],
      ["-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"],
      ["---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----", "---- END SSH2 ENCRYPTED PRIVATE KEY ----"],
      ["-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----END PGP PRIVATE KEY BLOCK-----"],
    ]) {
      const block = `${begin}\n${B1}\n${B2}\n${end}`;
      assert.equal(only(`before ${block} after`), block, begin);
    }
  });

  test("the BEGIN line's closing dashes are its own: an END glued to them does not close the key", () => {
    const text = `-----BEGIN PRIVATE KEY-----END PRIVATE KEY----- ${B1}`;
    assert.equal(only(text), text);
  });

  test("a key cut before its END is secret to the end of its string: double, single quote or the text's end", () => {
    const cut = `-----BEGIN EC PRIVATE KEY-----\\n${B1}\\n${B2}`;
    assert.equal(only(`{"k":"${cut}","next":1}`), cut);
    assert.equal(only(`k = '${cut}'; other`), cut);
    assert.equal(only(`k: ${cut}`), cut);
    assert.equal(only(`k = \`${cut}\`; other`), cut);
  });

  test("a whole block is one finding, not also an END without its BEGIN", () => {
    assert.equal(privateKeyBlocks(`-----BEGIN RSA PRIVATE KEY-----\n${B1}\n-----END RSA PRIVATE KEY-----`).length, 1);
  });
});

describe("an END line without its BEGIN takes the key lines just before it, and no others", () => {
  const END = "-----END RSA PRIVATE KEY-----";

  test("the key lines and END are secret; the lines before and after are kept", () => {
    assert.equal(only(`the tail of a file.\n${B1}\n${B2}\n${B3}\n${END}\nafter`), `${B1}\n${B2}\n${B3}\n${END}`);
  });

  test("a 4-dash SSH2 END line without its BEGIN", () => {
    const end = "---- END SSH2 ENCRYPTED PRIVATE KEY ----";
    assert.equal(only(`head!\n${B1}\n${B2}\n${end}\ntail`), `${B1}\n${B2}\n${end}`);
  });

  test("an orphan END after a whole block is a finding of its own", () => {
    const whole = `-----BEGIN RSA PRIVATE KEY-----\n${B1}\n${END}`;
    const text = `${whole}\nthen a cut:\n${B2}\n${B3}\n${END}`;
    const spans = privateKeyBlocks(text).map((s) => text.slice(s.start, s.end));
    assert.deepEqual(spans, [whole, `${B2}\n${B3}\n${END}`]);
  });

  test("an orphan END before a whole block is a finding of its own", () => {
    const cut = `${B2}\n${END}`;
    const whole = `-----BEGIN RSA PRIVATE KEY-----\n${B1}\n${END}`;
    const text = `cut.\n${cut}\nthen.\n${whole}`;
    assert.deepEqual(
      privateKeyBlocks(text)
        .map((s) => text.slice(s.start, s.end))
        .sort(),
      [cut, whole].sort(),
    );
  });

  test("an END glued right after another END is its own finding", () => {
    const whole = `-----BEGIN RSA PRIVATE KEY-----\n${B1}\n${END}`;
    const spans = privateKeyBlocks(whole + END).map((s) => [s.start, s.end]);
    assert.deepEqual(spans, [
      [0, whole.length],
      [whole.length, whole.length + END.length],
    ]);
  });

  test("grep -n hits: numbered key lines and the END line's bare number are secret", () => {
    const hits = `24-${B1}\n25:${B2}\n26------END RSA PRIVATE KEY-----`;
    assert.equal(only(`two matches.\n${hits}\n--\n40:plain`), hits);
  });

  test("a line number of two or more digits alone, with ':' or '-' and no space after it, counts as a key line", () => {
    for (const number of ["126-", "126:", "126: ", "126\t"]) {
      const text = `note.\n${B1}\n${number}${END}`;
      assert.equal(only(text), `${B1}\n${number}${END}`, number);
    }
  });

  test("encrypted-PEM headers (also indented) go with the key lines; a header named mid-line does not", () => {
    const headers = "Proc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0123ABCD\n\n";
    assert.equal(only(`cut!\n${headers}${B1}\n${B2}\n${END}`), `${headers}${B1}\n${B2}\n${END}`);
    const indented = "  Proc-Type: 4,ENCRYPTED\n  DEK-Info: AES-128-CBC,0123ABCD\n";
    assert.equal(only(`key: |\n${indented}  ${B1}\n${END}`), `${indented}  ${B1}\n${END}`);
    assert.equal(only(`see the Comment: field.\n${B1}\n${END}`), `${B1}\n${END}`);
  });

  test("text lines before the key lines are kept, even when they start or end with digits", () => {
    for (const line of ["3 files changed.", "retries=3", "9:done."]) {
      assert.equal(only(`${line}\n${B1}\n${B2}\n${END}`), `${B1}\n${B2}\n${END}`, line);
    }
  });

  test("a key line inside a JSON string gives only its base64", () => {
    assert.equal(only(`{"key":"${B1}\\n${B2}\\n${END}\\n"}`), `${B1}\\n${B2}\\n${END}`);
  });
});

describe("a PuTTY key's Private-Lines block is secret up to its MAC's last hex digit", () => {
  test("Private-MAC and Private-Hash, with or without a space; the public lines and what follows are kept", () => {
    for (const [lines, mac] of [
      ["Private-Lines: 2", `Private-MAC: ${"ab".repeat(32)}`],
      ["Private-Lines:2", `Private-MAC:${"0f".repeat(20)}`],
      ["Private-Lines:  12", `Private-Hash:  ${"9E".repeat(20)}`],
    ]) {
      const secret = `${lines}\n${B2}\n${B3}\n${mac}`;
      assert.equal(only(`PuTTY-User-Key-File-2: ssh-rsa\nPublic-Lines: 1\n${B1}\n${secret}\nnext`), secret, lines);
    }
  });

  test("cut before its MAC: secret to the end of its string", () => {
    const cut = `Private-Lines: 2\\n${B2}`;
    assert.equal(only(`{"ppk":"${cut}","x":1}`), cut);
  });
});

describe("a PEM key encoded in base64 again is secret", () => {
  test("the whole encoded run is one finding", () => {
    const encoded = Buffer.from(`-----BEGIN PRIVATE KEY-----\n${B1}\n-----END PRIVATE KEY-----\n`).toString("base64");
    assert.equal(only(`client-key-data: ${encoded}\nnext: 1`), encoded);
  });

  test("a key after a certificate in the same encoded bundle is found too", () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${B2}\n${B3}\n${B2}\n-----END CERTIFICATE-----\n`;
    const encoded = Buffer.from(
      `${cert}-----BEGIN EC PRIVATE KEY-----\n${B1}\n-----END EC PRIVATE KEY-----\n`,
    ).toString("base64");
    assert.equal(only(`tls.pem: ${encoded}`), encoded);
    assert.deepEqual(privateKeyBlocks(`tls.crt: ${Buffer.from(cert).toString("base64")}`), []);
  });
});

describe("numbered key lines before an END line without its BEGIN", () => {
  test("cat -n numbering (right-aligned, then a tab) keeps them key lines", () => {
    const text = `$ cat -n key.pem\n     1\t${B1}\n     2\t${B2}\n     3\t-----END EC PRIVATE KEY-----\n`;
    assert.equal(only(text), `     1\t${B1}\n     2\t${B2}\n     3\t-----END EC PRIVATE KEY-----`);
  });
});

describe("an indented END line without its BEGIN", () => {
  test("takes the key lines before it, indented as it is (a YAML block cut before BEGIN)", () => {
    const text = `key: |\n  ${B1}\n  ${B2}\n  -----END RSA PRIVATE KEY-----\nnext: 1`;
    assert.equal(only(text), `  ${B1}\n  ${B2}\n  -----END RSA PRIVATE KEY-----`);
  });

  test("indented with tabs as well as spaces", () => {
    const text = `key:\n\t${B1}\n\t${B2}\n\t -----END RSA PRIVATE KEY-----\nnext: 1`;
    assert.equal(only(text), `\t${B1}\n\t${B2}\n\t -----END RSA PRIVATE KEY-----`);
  });
});

describe("the detectors' hints skip only texts that cannot hold a key", () => {
  const [blocks, body] = PRIVATE_KEY_SHAPES;
  const bodyHint = body.hint as (lower: string) => boolean;
  const line = B1.toLowerCase();

  test("names: privatekey and key-body", () => {
    assert.deepEqual(
      PRIVATE_KEY_SHAPES.map((d) => d.name),
      ["privatekey", "key-body"],
    );
  });

  test("the block hint literals are all met by a key form, and none by plain prose", () => {
    const hints = blocks.hint as readonly string[];
    const prose = "a plain sentence about keys, begin and end, private lines and nothing else";
    assert.deepEqual(
      hints.filter((h) => prose.includes(h)),
      [],
    );
    for (const form of [
      "-----BEGIN PRIVATE KEY-----",
      "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
      "-----END RSA PRIVATE KEY-----",
      "---- END SSH2 ENCRYPTED PRIVATE KEY ----",
      "Private-Lines: 2",
      "LS0tLS1CRUdJTiBQUklWQVRF",
    ]) {
      const lower = form.toLowerCase();
      assert.ok(
        hints.some((h) => lower.includes(h)),
        form,
      );
    }
  });

  test("key-body: three lines and a full 64-character line from 192 characters on", () => {
    const at192 = `${"x ".repeat(63)}\n${line}`.padStart(192, " ").replace(/^ /, "\n");
    assert.equal(at192.length, 192);
    assert.ok(bodyHint(at192), "192 characters with a full line and three lines");
    assert.ok(!bodyHint(at192.slice(1)), "191 characters");
    assert.ok(!bodyHint(`${line}\nab\ncd`), "short text");
    assert.ok(bodyHint(`${"words and words ".repeat(12)}\n\n${line}`), "the full line at the very end");
  });

  test("key-body: no full base64 line, or too few lines, is skipped", () => {
    const prose = "words and more words, ".repeat(12);
    assert.ok(!bodyHint(`${prose}\n${prose}\n${prose}`), "long prose on three lines");
    assert.ok(!bodyHint(`${prose}${line}${line}`), "one line");
    assert.ok(
      !bodyHint(`${"abcdefghij".repeat(6)}-${"x".repeat(20)}\n${"abcdefghij ".repeat(12)}\nend`),
      "60 characters is not a full line",
    );
    assert.ok(!bodyHint(`-${"a".repeat(63)}\n`.repeat(3)), "63 characters after a dash is not a full line");
  });
});
