// `@harnessx/exporters/langsmith`: the LangSmith extension and push. Needs the optional peer `langsmith`;
// loads no OpenTelemetry SDK.
export { LangSmithExtension, type LangSmithExtensionOptions } from "./extension.js";
export { DeliveryLedger } from "./ledger.js";
export { ledgerFetch, type LedgerFetchOptions } from "./delivery-fetch.js";
export { watchedClient, type WatchedClient } from "./watched-client.js";
export { hasLangSmithCredentials } from "./credentials.js";
export { pushToLangSmith, type LangSmithPushOptions } from "./push.js";
export type { PushResult } from "../push-result.js";
export { ExporterError } from "../errors.js";
