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
