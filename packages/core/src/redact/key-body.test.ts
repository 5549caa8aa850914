// Key lines without their BEGIN and END lines (`keyBodyRuns`): what makes a run, where it ends,
// which lines are not key material, and which armor lines stop or silence a run.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { keyBodyRuns, MIN_RUN_LINES } from "./key-body.js";
import { Redactor } from "./redactor.js";

/** A fake line of key material `width` wide: base64 of a digest, checked to mix cases and digits; no key behind it. */
function keyLine(seed: string, width = 64): string {
  let out = "";
  for (let i = 0; out.length < width; i++)
    out += createHash("sha512").update(`${seed}/${i}`).digest("base64").replace(/=+$/, "");
  const line = out.slice(0, width);
  assert.ok(/[A-Z]/.test(line) && /[a-z]/.test(line) && /[0-9+/]/.test(line), line);
  return line;
}

/** `count` different key lines of one width. */
const keyLines = (count: number, width = 64, seed = "k") =>
  Array.from({ length: count }, (_, i) => keyLine(`${seed}${i}`, width));

/** The runs found, as the text each covers. */
function runs(text: string): string[] {
  return keyBodyRuns(text).map((span) => {
    assert.equal(span.name, "key-body");
    return text.slice(span.start, span.end);
  });
}

describe("a run is three full lines of one armor width or more", () => {
  test("64 (PEM), 70 (OpenSSH) and 76 (MIME) wide, the text around kept", () => {
    for (const width of [64, 70, 76]) {
      const body = keyLines(3, width).join("\n");
      assert.deepEqual(runs(`some output\n${body}\nmore output`), [body], `${width}`);
    }
  });

  test("exactly three lines make a run, two do not", () => {
    assert.equal(MIN_RUN_LINES, 3);
    const [a, b, c] = keyLines(3);
    assert.deepEqual(runs(`${a}\n${b}`), []);
    assert.deepEqual(runs(`${a}\n${b}\n${c}`), [`${a}\n${b}\n${c}`]);
  });

  test("other widths (63, 65, 80) are not armor widths", () => {
    for (const width of [63, 65, 80]) assert.deepEqual(runs(keyLines(4, width).join("\n")), [], `${width}`);
  });

  test("a change of width ends a run: two 64-wide lines then three 76-wide lines are one run of three", () => {
    const narrow = keyLines(2, 64, "n");
    const wide = keyLines(3, 76, "w");
    assert.deepEqual(runs([...narrow, ...wide].join("\n")), [wide.join("\n")]);
  });

  test("a line that is not base64 splits two runs apart", () => {
    const first = keyLines(3, 64, "a").join("\n");
    const second = keyLines(3, 64, "b").join("\n");
    assert.deepEqual(runs(`${first}\n-- cut here --\n${second}`), [first, second]);
  });
});

describe("the shorter last line of a body belongs to it", () => {
  const body = keyLines(3).join("\n");

  test("a shorter line, padded or not, ends the run, from four characters on", () => {
    for (const last of ["Zm9vYmFyYmF6cXV4", "Zm9vYmFyYmF6cXU=", "AB==", "QUJD"])
      assert.deepEqual(runs(`${body}\n${last}\nafter.`), [`${body}\n${last}`], last);
  });

  test("three characters are too few to be a last line", () => {
    assert.deepEqual(runs(`${body}\nQUJ\nafter.`), [body]);
  });

  test("a padded last line of full width belongs to the body, and is hidden", () => {
    const last = `${keyLine("last").slice(0, 62)}==`;
    assert.deepEqual(runs(`${body}\n${last}\nafter.`), [`${body}\n${last}`]);
    assert.equal(
      new Redactor().redactText(`grep hit:\n${body}\n${last}\ndone.`),
      "grep hit:\n[REDACTED:key-body]\ndone.",
    );
  });

  test("a padded line ends its run: full lines after it make another (two keys' bodies in a row)", () => {
    const first = [...keyLines(3, 64, "p"), `${keyLine("pad").slice(0, 63)}=`].join("\n");
    const second = keyLines(3, 64, "q").join("\n");
    assert.deepEqual(runs(`${first}\n${second}`), [first, second]);
  });

  test("a longer line, or base64 after other text (a quoted value on a line of prose), is not the body's last line", () => {
    const longer = keyLine("longer", 80);
    assert.deepEqual(runs(`${body}\n${longer}`), [body]);
    assert.deepEqual(runs(`${body}\nsaid "Zm9vYmFy"`), [body]);
  });

  test("after only two full lines a short line makes no run", () => {
    assert.deepEqual(runs(`${keyLines(2).join("\n")}\nQUJDRA==`), []);
  });
});

describe("lines that are not key material", () => {
  test("hex digests one per line (checksum files), in lower and in upper case", () => {
    const hex = Array.from({ length: 4 }, (_, i) => createHash("sha256").update(`${i}`).digest("hex"));
    assert.deepEqual(runs(hex.join("\n")), []);
    assert.deepEqual(runs(hex.map((h) => h.toUpperCase()).join("\n")), []);
  });

  test("letters only, mixed case (identifiers), are not key material", () => {
    const words = Array.from({ length: 3 }, (_, i) => `${"AbcDefGhiJkl".repeat(6)}Mn${"opqr".slice(i)}`.slice(0, 64));
    assert.deepEqual(runs(words.join("\n")), []);
  });

  test("the letters at the ends of the alphabet count: A and a, Z and z as the only letters of their case", () => {
    for (const unit of ["Aa0", "Zz9", "Aa+", "Zz/"]) {
      const line = unit.repeat(22).slice(0, 64);
      const body = [line, line, line].join("\n");
      assert.deepEqual(runs(body), [body], unit);
    }
  });
});

describe("armor lines", () => {
  const body = keyLines(3).join("\n");

  test("a BEGIN line of a private key does not silence the lines after it", () => {
    assert.deepEqual(runs(`-----BEGIN RSA PRIVATE KEY-----\n${body}`), [body]);
  });

  test("a public block (CERTIFICATE, PUBLIC KEY) is left alone, up to its END line", () => {
    for (const label of ["CERTIFICATE", "PUBLIC KEY", "PGP PUBLIC KEY BLOCK"]) {
      assert.deepEqual(runs(`log\n-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\nlog`), [], label);
      assert.deepEqual(
        runs(`${"a long log line. ".repeat(8)}\n-----BEGIN ${label}-----\n${body}`),
        [],
        `${label} after 136 characters`,
      );
    }
    assert.deepEqual(runs(`---- BEGIN SSH2 PUBLIC KEY ----\n${body}`), [], "4 dashes and spaces");
    assert.deepEqual(runs(`-----begin certificate-----\n${body}`), [], "lower case");
  });

  test("key lines after a public block's END line are key material again", () => {
    for (const end of ["-----END CERTIFICATE-----", "-----END PUBLIC KEY-----"])
      assert.deepEqual(runs(`${end}\n${body}\nafter.`), [body], end);
  });

  test("an armor line ends a run: the lines before it and after it are two runs", () => {
    const first = keyLines(3, 64, "x").join("\n");
    assert.deepEqual(runs(`${first}\n-----END RSA PRIVATE KEY-----\n${body}`), [first, body]);
  });

  test("a BEGIN line after indentation, a quote or a grep line number is still one", () => {
    for (const before of ["  ", "\t", '"', "'", "30:", "  9:\t"]) {
      assert.deepEqual(runs(`log\n${before}-----BEGIN CERTIFICATE-----\n${body}`), [], JSON.stringify(before));
    }
  });

  test("after other text a BEGIN line is not an armor line: the lines after it are key lines", () => {
    for (const before of ["cert ", "x", "#", "=", "~"]) {
      assert.deepEqual(runs(`log\n${before}-----BEGIN CERTIFICATE-----\n${body}`), [body], JSON.stringify(before));
    }
  });

  test("dashes without BEGIN or END are no armor line", () => {
    assert.deepEqual(runs(`log\n-----BEGIN-----\n${body}`), [body]);
    assert.deepEqual(runs(`log\n----------\n${body}`), [body]);
  });
});
