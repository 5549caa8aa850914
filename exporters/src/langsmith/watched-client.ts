import { Client, type ClientConfig } from "langsmith";
import { ledgerFetch } from "./delivery-fetch.js";
import { DeliveryLedger } from "./ledger.js";

/** A langsmith `Client` whose tracing uploads are counted by `ledger` (see `ledgerFetch`). */
export interface WatchedClient {
  /** The client; give it to LangSmith code as usual. */
  readonly client: Client;
  /** Counts of the client's runs delivered, outstanding and lost. */
  readonly ledger: DeliveryLedger;
  /** Ends every upload now and counts what did not arrive as lost; nothing is sent or printed afterwards. */
  close(): void;
}

/** Builds the client from `config` and the `LANGSMITH_*` variables. Default request time-out 10 s, 2 retries. */
export function watchedClient(config: ClientConfig = {}): WatchedClient {
  const ledger = new DeliveryLedger();
  const stop = new AbortController();
  const retries = config.callerOptions?.maxRetries ?? 2;
  const client = new Client({
    timeout_ms: 10_000,
    ...config,
    callerOptions: { ...config.callerOptions, maxRetries: retries },
    fetchImplementation: ledgerFetch(ledger, { inner: config.fetchImplementation, stop: stop.signal, retries }),
  });
  return {
    client,
    ledger,
    close() {
      stop.abort();
      ledger.settleAll();
    },
  };
}
