/**
 * Real-shaped secrets (made up, never valid) for the redaction tests and the fuzzer: one or
 * more per secret shape the default policy must catch. `core` is the part that must never
 * appear in redacted output (default: the whole secret).
 */
export interface PlantedSecret {
  name: string;
  secret: string;
  core?: string;
}

const alnum = (seed: number, length: number): string => {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let out = "";
  let x = seed * 7919 + 17;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += chars[x % chars.length];
  }
  return out;
};
const hex = (seed: number, length: number) =>
  alnum(seed, length * 2)
    .replace(/[^0-9a-f]/gi, "")
    .toLowerCase()
    .padEnd(length, "7")
    .slice(0, length)
    .replace(/[g-z]/g, "a");
const digits = (seed: number, length: number) =>
  alnum(seed, length * 3)
    .replace(/\D/g, "")
    .padEnd(length, "4")
    .slice(0, length);
const letters = (seed: number, length: number) =>
  alnum(seed, length * 2)
    .replace(/[^A-Za-z]/g, "")
    .padEnd(length, "q")
    .slice(0, length);

const PEM_BODY = Array.from({ length: 5 }, (_, i) => alnum(900 + i, 64)).join("\n");

/** A 1Password service account token: base64 of a JSON object, padded so that it ends in `fQ==`. */
function onePasswordToken(): string {
  const fields = {
    signInAddress: "https://my.1password.com",
    email: "svc@example.com",
    srpX: hex(43, 64),
    muk: { alg: "A256GCM", k: alnum(76, 43), kty: "oct" },
    secretKey: `A3-${alnum(77, 6)}-${alnum(78, 6)}`,
    deviceUuid: alnum(79, 26),
  };
  for (let pad = ""; ; pad += "x") {
    const json = JSON.stringify({ ...fields, pad });
    if (Buffer.byteLength(json) % 3 === 1) return `ops_${Buffer.from(json).toString("base64")}`;
  }
}

export const PLANTED_SECRETS: readonly PlantedSecret[] = [
  { name: "aws access key id", secret: `AKIA${alnum(1, 16).toUpperCase()}` },
  { name: "aws temporary key id", secret: `ASIA${alnum(2, 16).toUpperCase()}` },
  {
    name: "aws secret access key",
    secret: `aws_secret_access_key = ${alnum(3, 30)}/${alnum(4, 9)}`,
    core: `${alnum(3, 30)}/${alnum(4, 9)}`,
  },
  { name: "github classic token", secret: `ghp_${alnum(5, 36)}` },
  { name: "github oauth token", secret: `gho_${alnum(6, 36)}` },
  { name: "github user-to-server token", secret: `ghu_${alnum(7, 36)}` },
  { name: "github server token", secret: `ghs_${alnum(8, 36)}` },
  { name: "github refresh token", secret: `ghr_${alnum(9, 36)}` },
  { name: "github fine-grained token", secret: `github_pat_${alnum(10, 82)}` },
  { name: "gitlab token", secret: `glpat-${alnum(11, 20)}` },
  { name: "slack bot token", secret: `xoxb-${digits(12, 12)}-${digits(13, 13)}-${alnum(14, 24)}` },
  { name: "slack user token", secret: `xoxp-${digits(15, 12)}-${digits(16, 12)}-${digits(17, 13)}-${hex(18, 32)}` },
  { name: "slack app token", secret: `xapp-1-A${alnum(19, 10).toUpperCase()}-${digits(20, 13)}-${hex(21, 64)}` },
  {
    name: "slack webhook",
    secret: `https://hooks.slack.com/services/T${alnum(22, 8).toUpperCase()}/B${alnum(23, 8).toUpperCase()}/${alnum(24, 24)}`,
  },
  { name: "stripe live key", secret: `sk_live_${alnum(25, 24)}` },
  { name: "stripe restricted key", secret: `rk_live_${alnum(26, 24)}` },
  { name: "stripe test key", secret: `sk_test_${alnum(27, 24)}` },
  { name: "sendgrid key", secret: `SG.${alnum(28, 22)}.${alnum(29, 43)}` },
  { name: "shopify access token", secret: `shpat_${hex(30, 32)}` },
  { name: "npm token", secret: `npm_${alnum(31, 36)}` },
  { name: "openai project key", secret: `sk-proj-${alnum(32, 74)}T3BlbkFJ${alnum(33, 74)}` },
  { name: "openai key without marker", secret: `sk-proj-${alnum(34, 48)}` },
  { name: "openai legacy key", secret: `sk-${alnum(35, 20)}T3BlbkFJ${alnum(36, 20)}` },
  { name: "anthropic key", secret: `sk-ant-api03-${alnum(37, 93)}AA` },
  { name: "groq key", secret: `gsk_${alnum(38, 52)}` },
  { name: "hugging face token", secret: `hf_${letters(39, 34)}` },
  { name: "linear key", secret: `lin_api_${alnum(40, 40)}` },
  { name: "notion token", secret: `ntn_${digits(41, 11)}${alnum(42, 35)}` },
  { name: "1password service account", secret: onePasswordToken() },
  { name: "postgres url", secret: `postgres://app:${alnum(44, 16)}@db.internal:5432/orders`, core: alnum(44, 16) },
  { name: "mysql url", secret: `mysql://root:${alnum(45, 14)}@10.0.0.5:3306/shop`, core: alnum(45, 14) },
  { name: "mongodb url", secret: `mongodb+srv://svc:${alnum(46, 18)}@cluster0.example.net/prod`, core: alnum(46, 18) },
  {
    name: "basic auth in url",
    secret: `https://deploy:${alnum(47, 12)}@registry.example.com/v2/`,
    core: alnum(47, 12),
  },
  {
    name: "rsa private key",
    secret: `-----BEGIN RSA PRIVATE KEY-----\nMII${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    core: PEM_BODY.slice(0, 64),
  },
  {
    name: "openssh private key",
    secret: `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE${PEM_BODY}\n-----END OPENSSH PRIVATE KEY-----`,
    core: PEM_BODY.slice(64, 128),
  },
  { name: "vault service token", secret: `hvs.${alnum(48, 95)}` },
  { name: "vercel token", secret: `vcp_${alnum(49, 24)}` },
  { name: "databricks token", secret: `dapi${hex(50, 32)}` },
  { name: "docker hub token", secret: `dckr_pat_${alnum(51, 27)}` },
  { name: "figma token", secret: `figd_${alnum(52, 40)}` },
  { name: "cloudflare token", secret: `cfut_${alnum(53, 40)}${hex(54, 8)}` },
  { name: "tailscale key", secret: `tskey-auth-${alnum(55, 12)}-${alnum(56, 30)}` },
  { name: "grafana cloud token", secret: `glc_${alnum(57, 40)}` },
  { name: "grafana service account", secret: `glsa_${alnum(58, 32)}_${hex(59, 8)}` },
  { name: "google api key", secret: `AIza${alnum(60, 35)}` },
  { name: "jwt", secret: `eyJhbGciOiJIUzI1NiJ9.eyJ${alnum(61, 40)}.${alnum(62, 43)}` },
  { name: "bearer token in prose", secret: `use Bearer ${alnum(63, 32)} for the call`, core: alnum(63, 32) },
  {
    name: "email address",
    secret: `${letters(64, 8).toLowerCase()}.${letters(65, 6).toLowerCase()}@example.org`,
    core: `${letters(64, 8).toLowerCase()}.${letters(65, 6).toLowerCase()}`,
  },
  { name: "visa card", secret: "4111 1111 1111 1111" },
  { name: "mastercard", secret: "5555555555554444" },
  { name: "password assignment", secret: `password=${alnum(66, 14)}`, core: alnum(66, 14) },
  { name: "password in prose", secret: `my password hunter${digits(67, 4)}!`, core: `hunter${digits(67, 4)}` },
  { name: "client secret header", secret: `client_secret: ${alnum(68, 32)}`, core: alnum(68, 32) },
  { name: "x-api-key header", secret: `x-api-key: ${alnum(69, 28)}`, core: alnum(69, 28) },
  { name: "refresh token json", secret: `{"refresh_token":"${alnum(70, 40)}"}`, core: alnum(70, 40) },
  {
    name: "connection string password",
    secret: `Server=db;User Id=app;Password=${alnum(71, 10)};Tail=${alnum(72, 6)}`,
    core: alnum(71, 10),
  },
  {
    name: "private key json field",
    secret: `{"type":"service_account","private_key_id":"${hex(73, 40)}","private_key":"-----BEGIN PRIVATE KEY-----\\n${alnum(74, 64)}\\n-----END PRIVATE KEY-----\\n"}`,
    core: alnum(74, 64),
  },
  { name: "dsn", secret: `SENTRY_DSN=https://${hex(75, 32)}@o1.ingest.sentry.io/42`, core: hex(75, 32) },
];

/** Text that must survive redaction unchanged: ids, hashes, model names, paths, token counts. */
export const HARMLESS_TEXT: readonly string[] = [
  "call_0mx2ab_17",
  "run_0mx2q7k1_3f9a",
  "3e7901c900000001",
  "5f2b3c9d8e7a6b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c",
  "550e8400-e29b-41d4-a716-446655440000",
  "claude-3-5-sonnet-20241022",
  "gpt-4o-mini-2024-07-18",
  "/home/app/src/index.ts:42:7",
  "https://docs.example.com/guide?page=2#setup",
  "maxTokens=4096 inputTokens=128",
  "2026-12-02T03:04:00.000Z",
  "The tokenizer splits text into tokens.",
  "Password must be at least 12 characters.",
];
