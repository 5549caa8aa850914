// Sensitive keys and pattern hints written beyond ASCII (`extraKeys: ["contraseña"]`): the hint
// scanner's tries hold ASCII only, so these take their own path and must still be found in text,
// not only as object keys.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";

const redactor = new Redactor({ extraKeys: ["contraseña", "пароль", "Paßwort"] });

describe("keys beyond ASCII", () => {
  test("are redacted in every text form a key takes, in any case", () => {
    const cases: Array<[string, string]> = [
      ["contraseña: Zq8-hunter2", "contraseña: [REDACTED]"],
      ["CONTRASEÑA=Zq8-hunter2", "CONTRASEÑA=[REDACTED]"],
      ['sent "пароль": "Zq8-hunter2", ok', 'sent "пароль": "[REDACTED]", ok'],
      ["mysql --пароль=Zq8-hunter2 db", "mysql --пароль=[REDACTED] db"],
      ["<paßwort>Zq8-hunter2</paßwort>", "<paßwort>[REDACTED]</paßwort>"],
      ["db_contraseña = Zq8-hunter2", "db_contraseña = [REDACTED]"],
    ];
    for (const [text, expected] of cases) {
      assert.equal(redactor.redactText(text), expected, text);
    }
  });

  test("are redacted as object keys and inside string members alike", () => {
    const paths: string[] = [];
    const out = redactor.redact({ пароль: "Zq8-hunter2", log: "contraseña: Zq8-hunter2" }, "$", paths);
    assert.deepEqual(out, { пароль: "[REDACTED]", log: "contraseña: [REDACTED]" });
    assert.deepEqual(paths, ["$.пароль", "$.log"]);
  });

  test("a word that only contains one, or that one only starts, stays", () => {
    for (const text of ["contraseñas olvidadas", "пароль", "contraseñaX= no"]) {
      assert.equal(redactor.redactText(text), text, text);
    }
  });

  test("a policy without them leaves them alone", () => {
    assert.equal(new Redactor().redactText("contraseña: Zq8-hunter2"), "contraseña: Zq8-hunter2");
  });
});

describe("pattern hints beyond ASCII", () => {
  test("wake their pattern when the text holds them, in any case", () => {
    const ids = new Redactor({ extraPatterns: [{ name: "dni", pattern: /Número \d{8}[A-Z]/g, hint: ["número"] }] });
    assert.equal(ids.redactText("DNI: Número 12345678Z"), "DNI: [REDACTED:dni]");
    assert.equal(ids.redactText("Numero 12345678Z"), "Numero 12345678Z");
  });
});

describe("keys beyond ASCII, as text writes them", () => {
  const more = new Redactor({ extraKeys: ["contraseña", "clé_api", "şifre", "пароль"] });

  test("joined by a separator or not, in any case", () => {
    for (const text of ["clé_api: Zq8-hunter2", "clé-api=Zq8-hunter2", "CLÉ_API=Zq8-hunter2", "cléapi: Zq8-hunter2"]) {
      assert.ok(more.redactText(text).endsWith("[REDACTED]"), text);
    }
  });

  test("JSON-escaped, as Python's json.dumps writes them", () => {
    const json = '{"contrase\\u00f1a": "Zq8-hunter2", "user": "ann"}';
    assert.equal(more.redactText(json), '{"contraseña":"[REDACTED]","user":"ann"}');
    assert.equal(
      more.redactText('{"\\u043f\\u0430\\u0440\\u043e\\u043b\\u044c": "Zq8-hunter2"}'),
      '{"пароль":"[REDACTED]"}',
    );
  });

  test("decomposed (NFD) or with the Turkish İ, in text and as object keys", () => {
    assert.equal(more.redactText("contrasen\u0303a: Zq8-hunter2"), "contrasen\u0303a: [REDACTED]");
    assert.equal(more.redactText("ŞİFRE: Zq8-hunter2"), "ŞİFRE: [REDACTED]");
    assert.deepEqual(more.redact({ ŞİFRE: "Zq8-hunter2", "contrasen\u0303a": "Zq8-hunter2" }, "$", []), {
      ŞİFRE: "[REDACTED]",
      "contrasen\u0303a": "[REDACTED]",
    });
  });
});

describe("ASCII keys in text of other alphabets", () => {
  test("a key run into text without spaces, or after an emoji, is still a key", () => {
    const redactor = new Redactor();
    for (const [text, expected] of [
      [`${"这".repeat(70)}password=Zq8-hunter2`, `${"这".repeat(70)}password=[REDACTED]`],
      [`${"日本語のテキストです".repeat(7)}token=Zq8-hunter2`, `${"日本語のテキストです".repeat(7)}token=[REDACTED]`],
      ["⚠️password: Zq8-hunter2", "⚠️password: [REDACTED]"],
      ["✅️token=Zq8-hunter2", "✅️token=[REDACTED]"],
    ] as const) {
      assert.equal(redactor.redactText(text), expected, text.slice(-30));
    }
  });

  test("a text that lower-casing lengthens (İ) keeps its keys found, and is not called clean", () => {
    const redactor = new Redactor();
    assert.equal(
      redactor.redactText("İSTANBUL İZMİR İPTAL EDİLDİ\ntoken=Zq8\nok"),
      "İSTANBUL İZMİR İPTAL EDİLDİ\ntoken=[REDACTED]\nok",
    );
    assert.equal(redactor.redactText("İİİİİİİİİİ\npassword=hunter2x\nok"), "İİİİİİİİİİ\npassword=[REDACTED]\nok");
    assert.equal(redactor.jsonIfClean({ note: "İİİİİİİİİİ\npassword=hunter2x" }), undefined);
  });
});
