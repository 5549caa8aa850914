// Secrets in the forms a coding agent reads every day: shell commands and their output, URLs,
// config files (.env, YAML, XML, INI, Docker, Kubernetes, cloud connection strings), HTTP headers
// and keys that only a sensitive name gives away. Every value is made up.
import { Material } from "./random.js";
import { form, type CorpusSample } from "./sample.js";

const m = new Material(61);
const pw = () => `${m.alnum(10)}!${m.digits(2)}`;
const b64 = (text: string) => Buffer.from(text).toString("base64");

const curlUser = pw();
const dockerAuth = b64(`deploy:${pw()}`);
const basic = b64(`svc-ci:${pw()}`);
const proxyBasic = b64(`proxy:${pw()}`);
const accountKey = `${m.b64(86)}==`;
const sas = `${m.b64(43)}=`;
const busKey = `${m.b64(43)}=`;
const pluralA = m.alnum(24);
const pluralB = m.alnum(24);
const objectKey = `ghp_${m.alnum(36)}`;
const kubeToken = `eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJ${m.b64url(80)}.${m.b64url(86)}`;

export const EVERYDAY_FORMS: readonly CorpusSample[] = [
  // Command lines, as typed and as echoed back (set -x, ps, history).
  ...(() => {
    const a = pw(),
      b = pw(),
      c = m.alnum(32),
      d = m.alnum(32),
      e = m.alnum(40),
      f = m.alnum(28),
      g = pw(),
      h = m.alnum(30);
    return [
      form("--password=value", "form", a, `$ mysql --host db --user app --password=${a} orders`),
      form("--password value", "form", b, `+ psql "host=db" --username app --password ${b} -c 'select 1'`),
      form("--token=value", "form", c, `$ vault login --method=token --token=${c}`),
      form("--token value", "form", d, `$ gh auth login --with-token --token ${d}`),
      form("--api-key=value", "form", e, `node bin/sync.js --api-key=${e} --dry-run`),
      form("--api-key value (quoted)", "form", f, `$ ./deploy --api-key "${f}" --region eu`),
      form("--client-secret value", "form", g, `az login --service-principal --client-id app --client-secret ${g}`),
      form("--secret value in ps output", "form", h, `  4711 ?  Sl  0:03 /usr/bin/agent --secret ${h} --verbose`),
    ];
  })(),
  form(
    "curl -u user:password",
    "gitleaks:curl-auth-user",
    curlUser,
    `$ curl -sS -u admin:${curlUser} https://ci.example.com/api/json`,
  ),
  ...(() => {
    const a = pw(),
      b = m.alnum(36);
    return [
      form(
        "curl --user user:password",
        "gitleaks:curl-auth-user",
        a,
        `curl --user "deploy:${a}" -X POST http://jenkins:8080/job/build`,
      ),
      form(
        "curl -H 'Authorization: token ...'",
        "gitleaks:curl-auth-header",
        b,
        `curl -H 'Authorization: token ${b}' https://api.example.com/user`,
      ),
    ];
  })(),
  // URLs with credentials, on hosts with and without a dot.
  ...(() => {
    const a = pw(),
      b = pw(),
      c = pw(),
      d = pw(),
      e = pw(),
      f = pw(),
      g = pw(),
      h = pw();
    return [
      form("amqp URL, dotless host", "form", a, `broker: amqp://guest:${a}@rabbit:5672/vhost`),
      form("redis URL, password only", "form", b, `REDIS_URL=redis://:${b}@redis:6379/0`),
      form("https URL, dotless host", "form", c, `remote: https://ci-bot:${c}@gitlab/group/repo.git`),
      form(
        "postgres URL",
        "secretlint:database-connection-string",
        d,
        `DATABASE_URL=postgres://app:${d}@db.internal:5432/orders`,
      ),
      form("mongodb URL, dotless host", "form", e, `mongodb://root:${e}@mongo:27017/admin?authSource=admin`),
      form("ftp URL", "form", f, `fetching ftp://backup:${f}@files.example.net/nightly.tar`),
      form(
        "JDBC URL with password parameter",
        "form",
        g,
        `jdbc:mysql://db:3306/shop?user=app&password=${g}&useSSL=true`,
      ),
      form("git remote with token", "form", h, `origin\thttps://oauth2:${h}@git.example.com/team/app.git (fetch)`),
    ];
  })(),
  // Config files.
  ...(() => {
    const a = pw(),
      b = pw(),
      c = m.alnum(40),
      d = pw(),
      e = m.alnum(32),
      f = m.alnum(64),
      g = pw(),
      h = m.hex(64);
    return [
      form(
        "XML <password> element",
        "form",
        a,
        `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${a}</password>\n</server>`,
      ),
      form(
        "XML <Password> on one line",
        "form",
        b,
        `<ConnectionSettings><User>app</User><Password>${b}</Password></ConnectionSettings>`,
      ),
      form("XML <apiKey> element", "form", c, `<settings><apiKey>${c}</apiKey><region>eu</region></settings>`),
      form(
        "NuGet ClearTextPassword",
        "gitleaks:nuget-config-password",
        d,
        `<add key="ClearTextPassword" value="${d}" />`,
      ),
      form(".env JWT secret", "form", e, `JWT_SECRET=${e}\nPORT=3000`),
      form("Rails secret_key_base", "form", f, `production:\n  secret_key_base: ${f}`),
      form("YAML password", "form", g, `database:\n  user: app\n  password: ${g}\n  host: db`),
      form("TOML token", "form", h, `[registry]\ntoken = "${h}"`),
    ];
  })(),
  form("plural key: passwords", "form", pluralA, JSON.stringify({ passwords: [pluralA, "other"] })),
  form("plural key: apiKeys", "form", pluralB, JSON.stringify({ apiKeys: { primary: pluralB } })),
  ...(() => {
    const a = m.alnum(24),
      b = m.alnum(30),
      c = pw();
    return [
      form("plural key: secrets", "form", a, `secrets:\n  - ${a}`),
      form("plural key: tokens", "form", b, `{"tokens": ["${b}"]}`),
      form("singular credential key", "form", c, `{"credential": "${c}"}`),
    ];
  })(),
  form(
    "secret used as an object key",
    "form",
    objectKey,
    JSON.stringify({ [objectKey]: { scopes: ["repo"], owner: "ci" } }),
  ),
  form(
    "Docker config auths.*.auth",
    "secretlint:docker",
    dockerAuth,
    JSON.stringify({ auths: { "registry.example.com": { auth: dockerAuth } } }, null, 2),
  ),
  form("Basic token in free text", "form", basic, `retrying with Basic ${basic} after 401`),
  form("Proxy-Authorization: Basic", "form", proxyBasic, `Proxy-Authorization: Basic ${proxyBasic}`),
  form(
    "Azure storage AccountKey",
    "docs:azure-storage",
    accountKey,
    `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${accountKey};EndpointSuffix=core.windows.net`,
  ),
  form(
    "Azure SAS sig=",
    "docs:azure-storage",
    encodeURIComponent(sas),
    `https://acme.blob.core.windows.net/logs/app.log?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=${encodeURIComponent(sas)}`,
  ),
  form(
    "Azure Service Bus SharedAccessKey",
    "docs:azure-service-bus",
    busKey,
    `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${busKey}`,
  ),
  ...(() => {
    const a = m.alnum(40),
      b = m.alnum(64),
      c = m.b64url(43),
      d = m.hex(64);
    return [
      form(
        "AWS presigned URL signature",
        "docs:aws-s3",
        d,
        `https://bucket.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${d}`,
      ),
      form(
        "AWS secret access key in credentials file",
        "secretlint:aws",
        a,
        `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPL3\naws_secret_access_key = ${a}`,
      ),
      form("AWS session token", "form", b, `export AWS_SESSION_TOKEN=${b}`),
      form(
        "API key in a query string",
        "form",
        c,
        `GET https://maps.example.com/geocode?address=Main+St&api_key=${c} 200`,
      ),
    ];
  })(),
  form("Kubernetes kubeconfig token", "form", kubeToken, `users:\n- name: ci\n  user:\n    token: ${kubeToken}`),
  ...(() => {
    const a = m.alnum(32),
      b = pw(),
      c = m.alnum(40),
      d = m.hex(32),
      e = m.hex(40),
      f = m.alnum(43),
      g = m.hex(32),
      h = m.alnum(30);
    return [
      form("Cookie header", "form", a, `Cookie: theme=dark; session=${a}; lang=en`),
      form("Set-Cookie header", "form", b, `Set-Cookie: sid=${b}; Path=/; HttpOnly`),
      form("X-Auth-Token header", "form", c, `X-Auth-Token: ${c}`),
      form("Datadog API key variable", "gitleaks:datadog-access-token", d, `DD_API_KEY=${d}`),
      form("Datadog application key variable", "gitleaks:datadog-access-token", e, `DD_APP_KEY=${e}`),
      form("Algolia admin key variable", "gitleaks:algolia-api-key", f, `ALGOLIA_ADMIN_KEY=${f}`),
      form("Twilio auth token variable", "docs:twilio", g, `TWILIO_AUTH_TOKEN=${g}`),
      form("Twitter consumer secret variable", "gitleaks:twitter-api-secret", h, `TWITTER_CONSUMER_SECRET=${h}`),
    ];
  })(),
  ...(() => {
    const a = m.alnum(40),
      b = `key-${m.hex(32)}`,
      c = `s.${m.alnum(24)}`,
      d = m.alnum(52),
      e = pw(),
      f = pw(),
      g = m.hex(32);
    return [
      form("Okta API token variable", "gitleaks:okta-access-token", a, `OKTA_API_TOKEN=00${a}`),
      form("Mailgun key variable", "gitleaks:mailgun-private-api-token", b, `MAILGUN_API_KEY=${b}`),
      form("Vault legacy token variable", "gitleaks:vault-service-token", c, `VAULT_TOKEN=${c}`),
      form("Azure DevOps PAT variable", "docs:azure-devops", d, `AZURE_DEVOPS_EXT_PAT=${d}`, false),
      form(".netrc password", "form", e, `machine api.example.com login deploy password ${e}`),
      form(
        "SQL Server connection string",
        "form",
        f,
        `Server=tcp:db,1433;Database=shop;User ID=app;Password=${f};Encrypt=true`,
      ),
      form("Sentry DSN", "form", g, `SENTRY_DSN=https://${g}@o12345.ingest.sentry.io/67890`),
    ];
  })(),
  ...(() => {
    const a = pw(),
      b = pw(),
      c = m.alnum(20);
    return [
      form("mysql -p<password>", "form", a, `$ mysql -u root -p${a} shop`, false),
      form("docker login -p <password>", "form", b, `$ docker login -u ci -p ${b} registry.example.com`, false),
      form("password alone in free text", "form", c, `the new one is ${c}, keep it safe`, false),
    ];
  })(),
  form(".pgpass line", "form", "pgpass-Zq8w2Lm", `db.internal:5432:orders:app:pgpass-Zq8w2Lm`, false),
  ...(() => {
    const a = m.alnum(20);
    return [
      form(
        "https URL, dotted host",
        "secretlint:basicauth",
        a,
        `git clone https://deploy:${a}@git.example.com/app.git`,
      ),
    ];
  })(),
];
