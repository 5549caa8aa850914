// The default policy (rules.ts): every default key hides its value, each default pattern's bounds,
// card numbers (the Luhn check and how cards are printed), and how options resolve.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Redactor } from "./redactor.js";
import {
  DEFAULT_PATTERNS,
  DEFAULT_REDACTION_RULES,
  DEFAULT_SENSITIVE_KEYS,
  luhnValid,
  resolveRedaction,
} from "./rules.js";

/** Only the default patterns (no maintained shapes): what each pattern alone finds. */
const patternsOnly = new Redactor({ secretShapes: false, keys: [] });
const p = (text: string) => patternsOnly.redactText(text);
const pattern = (name: string) => DEFAULT_PATTERNS.find((rule) => rule.name === name)!;
/** Letters and digits, `n` of them: a token body assembled at run time. */
const body = (n: number) => "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9".repeat(4).slice(0, n);

describe("every default key hides its value, as services spell it", () => {
  const redactor = new Redactor();
  const spellings: Record<string, string> = {
    authorization: "Authorization",
    auth: "auth",
    proxyauthorization: "Proxy-Authorization",
    apikey: "X-Api-Key",
    apisecret: "api_secret",
    appkey: "APP_KEY",
    adminkey: "adminKey",
    authkey: "auth-key",
    accountkey: "AccountKey",
    sharedaccesskey: "SharedAccessKey",
    password: "password",
    passwd: "passwd",
    pwd: "PWD",
    passphrase: "passphrase",
    secret: "client_secret",
    secretkey: "secretKey",
    secretaccesskey: "AWS_SECRET_ACCESS_KEY",
    privatekey: "private_key",
    signingkey: "signingKey",
    encryptionkey: "ENCRYPTION_KEY",
    masterkey: "masterKey",
    secretkeybase: "secret_key_base",
    token: "token",
    credential: "credential",
    credentials: "credentials",
    cookie: "Cookie",
    dsn: "SENTRY_DSN",
    connectionstring: "ConnectionString",
  };

  test("the list is the one documented, each key with a spelling", () => {
    assert.deepEqual([...DEFAULT_SENSITIVE_KEYS].sort(), Object.keys(spellings).sort());
  });

  test("an object value and a `key=value` in text", () => {
    // `auth` hides only base64 of user:password (Docker's auths), the others any value.
    const value = (key: string) => (key === "auth" ? Buffer.from("ci:Zq8-hunter2").toString("base64") : "Zq8-hunter2");
    for (const [key, spelled] of Object.entries(spellings)) {
      const paths: string[] = [];
      const out = redactor.redact({ [spelled]: value(key), note: "kept" }, "p", paths) as Record<string, unknown>;
      assert.deepEqual(paths, [`p.${spelled}`], spelled);
      assert.equal(out.note, "kept");
      assert.ok(!redactor.redactText(`${spelled}=${value(key)}`).includes(value(key)), spelled);
    }
  });

  test("`credentials` is a key of its own, not only a plural: even a number under it is hidden", () => {
    assert.deepEqual(redactor.redact({ credentials: 3, inputTokens: 3 }, "p", []), {
      credentials: "[REDACTED]",
      inputTokens: 3,
    });
  });
});

describe("the default patterns, each at its bounds", () => {
  test("bearer: 8 characters after `Bearer ` or more, any case", () => {
    assert.equal(p(`Authorization: Bearer ${body(8)}`), "Authorization: [REDACTED:bearer]");
    assert.equal(p(`auth bearer\t${body(8)}`), "auth [REDACTED:bearer]");
    assert.equal(p(`Bearer ${body(7)}`), `Bearer ${body(7)}`);
    assert.equal(p(`Bearer a.b~c+d/e=f-g_h`), "[REDACTED:bearer]");
    assert.equal(p(`Bearer  ${body(8)}`), "[REDACTED:bearer]", "two spaces");
  });

  test("api_key: sk-, pk-, rk- (or _) and 16 characters or more, through inner dashes", () => {
    for (const prefix of ["sk-", "pk_", "rk-", "sk-proj-", "sk_live_"])
      assert.equal(p(`key ${prefix}${body(16)} end`), "key [REDACTED:api_key] end", prefix);
    assert.equal(p(`key sk-${body(15)} end`), `key sk-${body(15)} end`);
    assert.equal(p(`key ask-${body(20)}`), `key ask-${body(20)}`, "inside a word");
    for (const odd of ["sk-$$-", "sk-ab$"]) assert.equal(p(`key ${odd}${body(16)}`), `key ${odd}${body(16)}`, odd);
  });

  test("aws_key: each id prefix and 16 upper-case letters or digits, a word of its own", () => {
    const tail = "Q3T5V7W9Y2Z4B6C8";
    for (const prefix of ["AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "A3T7"])
      assert.equal(p(`id ${prefix}${tail}.`), "id [REDACTED:aws_key].", prefix);
    assert.equal(p(`id AKIA${tail.slice(1)}`), `id AKIA${tail.slice(1)}`, "15");
    assert.equal(p(`id AKIA${tail}X`), `id AKIA${tail}X`, "17");
    assert.equal(p(`id AKIA${tail.toLowerCase()}`), `id AKIA${tail.toLowerCase()}`, "lower case");
  });

  test("google_key: AIza and 35 characters", () => {
    assert.equal(p(`k=AIza${body(35)};`), "k=[REDACTED:google_key];");
    assert.equal(p(`k=AIza${body(34)};`), `k=AIza${body(34)};`);
    assert.equal(p(`k=AIza${body(34)}-_`), "k=[REDACTED:google_key]", "- and _ are key characters");
  });

  test("jwt: three dot-separated parts, the first two base64 of JSON objects, 8 characters each", () => {
    const jwt = `eyJ${body(8)}.eyJ${body(8)}.${body(8)}`;
    assert.equal(p(`t ${jwt} end`), "t [REDACTED:jwt] end");
    assert.equal(p(`t eyJ${body(7)}.eyJ${body(8)}.${body(8)}`), `t eyJ${body(7)}.eyJ${body(8)}.${body(8)}`);
    assert.equal(p(`t eyJ${body(8)}.eyJ${body(8)}.${body(7)}`), `t eyJ${body(8)}.eyJ${body(8)}.${body(7)}`);
  });

  test("email: an address, but not the user of a URL", () => {
    assert.equal(p("mail ann.lee+ci@example.co.uk now"), "mail [REDACTED:email] now");
    assert.equal(p("git clone https://deploy@git.example.com/a.git"), "git clone https://deploy@git.example.com/a.git");
    assert.equal(
      p("git clone https://ci.bot@git.example.com/a.git"),
      "git clone https://ci.bot@git.example.com/a.git",
      "a dotted user",
    );
    assert.equal(p("ann@localhost"), "ann@localhost", "a domain needs a dot and a top level of 2 letters");
  });

  test("each pattern is global and has hints every match contains", () => {
    for (const rule of DEFAULT_PATTERNS) assert.ok(rule.pattern.flags.includes("g"), rule.name);
    const samples: Record<string, string> = {
      bearer: `Bearer ${body(8)}`,
      api_key: `sk-${body(16)}`,
      aws_key: "AKIAQ3T5V7W9Y2Z4B6C8",
      google_key: `AIza${body(35)}`,
      jwt: `eyJ${body(8)}.eyJ${body(8)}.${body(8)}`,
      email: "a@b.io",
    };
    for (const [name, sample] of Object.entries(samples)) {
      const hint = pattern(name).hint as readonly string[];
      assert.ok(
        hint.some((h) => sample.toLowerCase().includes(h)),
        name,
      );
    }
    for (const prefix of ["sk-", "pk-", "rk-", "sk_", "pk_", "rk_"])
      assert.ok((pattern("api_key").hint as readonly string[]).includes(prefix), prefix);
    for (const prefix of ["akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "a3t"])
      assert.ok((pattern("aws_key").hint as readonly string[]).includes(prefix), prefix);
  });
});

describe("card numbers", () => {
  test("luhnValid: the checksum, from 13 to 19 digits", () => {
    assert.equal(luhnValid("4111111111111111"), true);
    assert.equal(luhnValid("4111111111111112"), false);
    assert.equal(luhnValid("4111-1111-1111-1111"), true, "separators ignored");
    assert.equal(luhnValid("79927398713"), false, "11 digits, checksum valid but too short");
    assert.equal(luhnValid("0000000000000"), true, "13 digits");
    assert.equal(luhnValid("000000000000"), false, "12 digits");
    assert.equal(luhnValid("0000000000000000000"), true, "19 digits");
    assert.equal(luhnValid("00000000000000000000"), false, "20 digits");
    assert.equal(luhnValid("5555555555554444"), true, "doubled digits over 9");
    assert.equal(luhnValid("5555555555554440"), false);
    assert.equal(luhnValid("0000000000000018"), true, "the second digit from the right is doubled");
    assert.equal(luhnValid("0000000000000081"), false);
  });

  const card = (text: string) => p(text);

  test("one unbroken group, 4-4-4-4, Amex 4-6-5, Diners 4-6-4 and 4-4-4-4-3", () => {
    assert.equal(card("pan 4111111111111111."), "pan [REDACTED:card].");
    assert.equal(card("pan 4111 1111 1111 1111"), "pan [REDACTED:card]");
    assert.equal(card("pan 3782-822463-10005"), "pan [REDACTED:card]");
    assert.equal(card("pan 3056 930902 5904"), "pan [REDACTED:card]");
    assert.equal(card("pan 4000 0000 0000 0000 006"), "pan [REDACTED:card]");
    assert.equal(card("pan 4222222222222 x"), "pan [REDACTED:card] x", "13 digits in one group");
  });

  test("the longest card in a run of groups wins; numbers around it stay", () => {
    assert.equal(card("rows 95 4111 1111 1111 1111 5"), "rows 95 [REDACTED:card] 5");
    assert.equal(card("n 12 4111 1111 1111 1111"), "n 12 [REDACTED:card]");
    // Both 4001…6836 (16 digits) and 4001…6836 732 (19) pass the check: the 19 are the card.
    assert.equal(card("pan 4001 6659 4134 6836 732"), "pan [REDACTED:card]");
    // 4037…3227 and 6724…6107 both pass: the first found of the longest stays the card.
    assert.equal(card("pan 4037 6724 9912 3227 6107"), "pan [REDACTED:card] 6107");
  });

  test("groups not printed as cards stay, checksum or not", () => {
    for (const text of [
      "76864 13376 51584",
      "4111 11 1111 1111 1111",
      "4111 1111111 1111 1111",
      "411 1111 1111 1111 1",
      "12 34 56 78 90 12 34 5",
    ])
      assert.equal(card(text), text, text);
    assert.equal(card("id 4111111111111112"), "id 4111111111111112", "checksum fails");
    // Each of these passes the check as a whole, but is not printed as cards are.
    for (const text of ["491 1862 5276 0189", "4777 41 2154 7280", "4516 7612220 2972", "4483726167513 6134"])
      assert.equal(card(`n ${text}`), `n ${text}`, text);
    assert.equal(card("n 411111111111"), "n 411111111111", "12 digits");
  });

  test("the card hint: 13 digits in a row, single spaces or dashes between", () => {
    const hint = pattern("card").hint as (lower: string) => boolean;
    assert.equal(hint("x 4111111111111"), true);
    assert.equal(hint("x 411111111111"), false);
    assert.equal(hint("4111 1111 1111 1"), true);
    assert.equal(hint("4111-1111-1111-1"), true);
    assert.equal(hint("4111  1111 1111 1"), false, "two spaces");
    assert.equal(hint("4111 1111 1111 "), false);
    assert.equal(hint(" 4111111111111"), true);
    assert.equal(hint("-4111 1111 1111 1"), true);
    assert.equal(hint("4111 1111 1111 x1"), false);
    assert.equal(hint("4111/1111/1111/1"), false, "other separators");
  });
});

describe("options resolve against the defaults", () => {
  test("false is off, nothing is the defaults", () => {
    assert.equal(resolveRedaction(false), false);
    assert.equal(resolveRedaction(undefined), DEFAULT_REDACTION_RULES);
    assert.deepEqual(DEFAULT_REDACTION_RULES, {
      keys: DEFAULT_SENSITIVE_KEYS,
      patterns: DEFAULT_PATTERNS,
      secretShapes: true,
    });
    assert.deepEqual(resolveRedaction({}), {
      keys: [...DEFAULT_SENSITIVE_KEYS],
      patterns: [...DEFAULT_PATTERNS],
      secretShapes: true,
    });
  });

  test("keys and patterns replace, extraKeys and extraPatterns add, secretShapes false turns shapes off", () => {
    const extra = { name: "ticket", pattern: /TCK-\d+/g };
    const rules = resolveRedaction({
      keys: ["pin"],
      extraKeys: ["otp"],
      patterns: [],
      extraPatterns: [extra],
      secretShapes: false,
    });
    assert.deepEqual(rules, { keys: ["pin", "otp"], patterns: [extra], secretShapes: false });
    const added = resolveRedaction({ extraKeys: ["otp"], extraPatterns: [extra] });
    assert.ok(added !== false);
    assert.deepEqual(added.keys, [...DEFAULT_SENSITIVE_KEYS, "otp"]);
    assert.deepEqual(added.patterns, [...DEFAULT_PATTERNS, extra]);
    assert.equal(added.secretShapes, true);
  });

  test("the defaults are frozen", () => {
    assert.ok(
      Object.isFrozen(DEFAULT_REDACTION_RULES) &&
        Object.isFrozen(DEFAULT_SENSITIVE_KEYS) &&
        Object.isFrozen(DEFAULT_PATTERNS),
    );
  });
});
