// Private keys, whole and in the pieces that cuts make of them (a preview that ends before the
// END line, a slice or search hit from the middle, JSON-escaped, base64-wrapped). Keys are
// generated here with node:crypto; the formats node cannot write are laid out with random bytes.
import { generateKeyPairSync } from "node:crypto";
import { Material } from "./random.js";
import { form, type CorpusSample } from "./sample.js";

const m = new Material(97);

/** An armored block of `lines` random base64 lines of `width`, the last one shorter. */
function armor(label: string, lines: number, width: number, prefix = ""): string {
  const body = Array.from({ length: lines }, (_, i) =>
    i === 0 ? prefix + m.b64(width - prefix.length) : m.b64(width),
  );
  body.push(`${m.b64(width / 2)}==`);
  return `-----BEGIN ${label}-----\n${body.join("\n")}\n-----END ${label}-----\n`;
}

const pem = (type: "rsa" | "ec" | "ed25519" | "dsa", encoding: Record<string, string>): string =>
  generateKeyPairSync(
    type as "rsa",
    {
      modulusLength: 2048,
      namedCurve: "P-256",
      divisorLength: 224,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { format: "pem", ...encoding } as never,
    } as never,
  ).privateKey as unknown as string;

/** The body lines of a PEM text (everything between its BEGIN and END lines, headers left out). */
export const bodyLines = (text: string): string[] =>
  text.split("\n").filter((line) => /^[A-Za-z0-9+/=]{16,}$/.test(line));
/** A body line from the middle: the one a test looks for in redacted output. */
const middle = (text: string): string => {
  const lines = bodyLines(text);
  return lines[Math.floor(lines.length / 2)];
};

export const RSA_PKCS8 = pem("rsa", { type: "pkcs8" });
const rsaPkcs1 = pem("rsa", { type: "pkcs1" });
const rsaEncrypted = pem("rsa", { type: "pkcs1", cipher: "aes-256-cbc", passphrase: "corpus" });
const pkcs8Encrypted = pem("rsa", { type: "pkcs8", cipher: "aes-256-cbc", passphrase: "corpus" });
const ecSec1 = pem("ec", { type: "sec1" });
const ed25519 = pem("ed25519", { type: "pkcs8" });
const dsa = pem("dsa", { type: "pkcs8" });
const gcpKey = pem("rsa", { type: "pkcs8" });
const openssh = armor("OPENSSH PRIVATE KEY", 26, 70, "b3BlbnNzaC1rZXktdjEAAAAA");
const pgp = armor("PGP PRIVATE KEY BLOCK", 30, 64, "lQVYBG").replace(
  "\n",
  "\nVersion: GnuPG v2\nComment: made up for a test\n\n",
);
const ssh2 = `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "rsa-key-20260101"\n${Array.from({ length: 12 }, () => m.b64(70)).join("\n")}\n${m.b64(30)}==\n---- END SSH2 ENCRYPTED PRIVATE KEY ----`;
const puttyPrivate = Array.from({ length: 14 }, () => m.b64(64));
const putty = `PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: rsa-key-20260101\nPublic-Lines: 6\n${Array.from({ length: 6 }, () => m.b64(64)).join("\n")}\nPrivate-Lines: 14\n${puttyPrivate.join("\n")}\nPrivate-MAC: ${m.hex(64)}\n`;

const rsaLines = RSA_PKCS8.trim().split("\n");
const head = rsaLines.slice(0, 12).join("\n");
const tail = rsaLines.slice(15).join("\n");
const run = rsaLines.slice(6, 11).join("\n");
const grep = rsaLines
  .slice(9, 12)
  .map((line, i) => `${10 + i}${i === 1 ? ":" : "-"}${line}`)
  .join("\n");
const escaped = JSON.stringify({ type: "service_account", private_key: RSA_PKCS8 });
const serviceAccount = JSON.stringify({
  type: "service_account",
  project_id: "demo",
  private_key_id: m.hex(40),
  private_key: rsaPkcs1,
  client_email: "svc@demo.iam.gserviceaccount.com",
});
const kubeKey = Buffer.from(ecSec1).toString("base64");

export const PRIVATE_KEYS: readonly CorpusSample[] = [
  form("RSA private key (PKCS#8)", "gitleaks:private-key", middle(RSA_PKCS8), `$ cat id.pem\n${RSA_PKCS8}`),
  form("RSA private key (PKCS#1)", "secretlint:privatekey", middle(rsaPkcs1), rsaPkcs1),
  form("encrypted RSA key (Proc-Type, DEK-Info)", "gitleaks:private-key", middle(rsaEncrypted), rsaEncrypted),
  form("encrypted PKCS#8 key", "gitleaks:private-key", middle(pkcs8Encrypted), pkcs8Encrypted),
  form("EC private key (SEC1)", "gitleaks:private-key", middle(ecSec1), ecSec1),
  form("Ed25519 private key (PKCS#8)", "gitleaks:private-key", bodyLines(ed25519)[0], ed25519),
  form("DSA private key", "gitleaks:private-key", middle(dsa), dsa),
  form("OpenSSH private key", "gitleaks:private-key", middle(openssh), openssh),
  form("PGP private key block", "gitleaks:private-key", middle(pgp), pgp),
  form("SSH2 encrypted private key", "docs:rfc4716", middle(ssh2), ssh2),
  form("PuTTY private key lines", "docs:putty", puttyPrivate[7], putty),
  form("a private key cut before its END line", "form", rsaLines[9], `${head}\n[harnessx: result truncated]`),
  form("the tail of a private key (no BEGIN line)", "form", rsaLines[20], `[lines 16-28 of 28 (text)]\n${tail}`),
  form("key body lines alone (a slice from the middle)", "form", rsaLines[8], `[lines 7-11 of 28 (text)]\n${run}`),
  form("key body lines as search hits", "form", rsaLines[10], `[1 match for "Qk" in the text (28 lines)]\n${grep}`),
  form("a JSON-escaped private key cut short", "form", rsaLines[8], escaped.slice(0, 700)),
  form("a service account file's private_key", "secretlint:gcp", middle(rsaPkcs1), serviceAccount),
  form(
    "a base64-encoded private key (kubeconfig client-key-data)",
    "form",
    kubeKey.slice(40, 120),
    `users:\n- name: admin\n  user:\n    client-key-data: ${kubeKey}`,
  ),
  form(
    "a private key in a YAML block scalar",
    "form",
    middle(ecSec1),
    `tls:\n  key: |\n${ecSec1
      .trim()
      .split("\n")
      .map((l) => `    ${l}`)
      .join("\n")}\n  port: 443`,
  ),
  form(
    "GCP service account key file",
    "secretlint:gcp",
    bodyLines(gcpKey)[4]!,
    JSON.stringify(
      {
        type: "service_account",
        project_id: "corpus-demo",
        private_key_id: m.hex(40),
        private_key: gcpKey,
        client_email: "agent@corpus-demo.iam.gserviceaccount.com",
      },
      null,
      2,
    ),
  ),
];
