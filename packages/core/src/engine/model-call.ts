import { HookEvent } from "../hooks/events.js";
import type { Usage } from "../types/content.js";
import { deepFreeze, vouchFrozenThrough } from "../util/deep-freeze.js";
import type { CallCost } from "../cost/call-cost.js";
import type { ModelProvider, ModelRequest, ProviderResponse, ToolDefinition } from "../types/provider.js";
import { currentScope, inScope } from "../spans/scopes.js";
import { projectConversation } from "../messages/projection.js";
import { askProvider } from "./ask-provider.js";
import { answerInOrder, type ProviderRoute } from "./fallback.js";
import { routesOf } from "../providers/fallback-provider.js";
import { fire, type EngineServices, type RunSink } from "./services.js";

/** What one model call works with, and what it reports back to its run. */
export interface ModelCallInput {
  tools: readonly ToolDefinition[];
  maxTokens: number;
  signal?: AbortSignal;
  sink: RunSink;
  /** Called with every raw reply's usage, discarded replies included. */
  onUsage: (usage: Usage, cost: CallCost) => void;
  /** Called with the raw reply before response middleware (a durable run commits it there). */
  onRawReply?: (response: ProviderResponse, cost: CallCost) => Promise<void>;
  /** Called when a fallback provider answered, with which providers failed how (a `RECOVERY` of reason `fallback`). */
  onFallback?: (detail: string) => Promise<void> | undefined;
}

/**
 * One model call: compose, `beforeLlmCall`, `LLM_REQUEST`, the provider call
 * with timeout and retries (`RETRY`, waiting events), `LLM_RESPONSE` with the
 * raw reply, then `afterLlmCall`. Returns the processed reply.
 */
export function callModel(services: EngineServices, input: ModelCallInput): Promise<ProviderResponse> {
  const scope = currentScope();
  if (!scope) return callModelInScope(services, input);
  const span = services.spans.open("chat", services.config.model, scope.runId);
  return inScope({ runId: scope.runId, span }, () => callModelInScope(services, input));
}

async function callModelInScope(services: EngineServices, input: ModelCallInput): Promise<ProviderResponse> {
  const { config, memory, middleware } = services;
  // Custom entries reach the model only as their types project them; without any, the history is sent as it is.
  const history =
    memory.customCount === 0 ? memory.messages : projectConversation(memory.entries, services.messageTypes);
  const rewrittenBy: string[] = [];
  // Middleware gets a frozen copy: a history changed in place could not be told from the memory's, nor attributed.
  const handed = middleware.has("beforeLlmCall") ? Object.freeze(history.slice()) : history;
  const [returned, tools] =
    handed !== history ? await middleware.beforeLlmCall(handed, input.tools, rewrittenBy) : [history, input.tools];
  const messages = returned === handed ? history : returned;
  const { system, prefixKey } = services.prompt.compose(tools);
  const routes = routesOf(services.provider, config.model);
  const stream = streams(routes[0]!.provider, input.sink);
  const fromMemory = messages === memory.messages;
  const placing = middleware.has("placeCacheBreakpoints");
  // Decided with no await before LLM_REQUEST: an observer registered meanwhile would see the memory's own array.
  const lent = fromMemory && !placing && !mayKeepRequest(services);
  const request: ModelRequest = {
    model: config.model,
    system,
    messages: fromMemory && !lent ? messages.slice() : messages,
    tools,
    maxTokens: input.maxTokens,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    stream,
  };
  const handling = lent ? "lent" : fromMemory ? "memory" : "other";
  if (placing) {
    // Placing breakpoints reads the request: it may not change it.
    freezeParts(request, handling, services.tools.definitions());
    const breakpoints = await middleware.placeCacheBreakpoints(Object.freeze({ ...request }));
    if (breakpoints.length > 0) request.cacheBreakpoints = breakpoints;
  }
  sealRequest(request, handling, services.tools.definitions());
  const requested = fire(services, HookEvent.LLM_REQUEST, {
    system,
    model: request.model,
    maxTokens: request.maxTokens,
    temperature: config.temperature,
    stream,
    messageCount: request.messages.length,
    toolCount: request.tools.length,
    prefixKey,
    request,
    ...(rewrittenBy.length > 0 ? { historyRewrittenBy: rewrittenBy } : {}),
  });
  if (requested) await requested;
  const started = performance.now();
  let answered = routes[0]!;
  const raw = await middleware.wrapModelCall(request, () =>
    askRoutes(services, routes, request, input, (route) => (answered = route)),
  );
  const provider = raw.provider || answered.provider.name;
  const model = raw.model || answered.model;
  const cost = await services.pricer.price(raw.usage, model, provider);
  input.onUsage(raw.usage, cost);
  const responded = fire(services, HookEvent.LLM_RESPONSE, {
    response: raw,
    provider,
    model,
    usage: raw.usage,
    cost,
    stopReason: raw.stopReason,
    durationMs: performance.now() - started,
  });
  if (responded) await responded;
  // The journal keeps who answered (a fallback, maybe) even for a provider whose replies leave it out.
  await input.onRawReply?.(raw.provider && raw.model ? raw : { ...raw, provider, model }, cost);
  // Deltas held back while middleware transforms replies: what streams is the processed text.
  return processReply(services, raw, input.sink, stream && middleware.transformsResponses());
}

/**
 * What LLM_REQUEST reports is what is sent: past this point nobody (a wrapModelCall, a provider,
 * an observer) can change the request in place. Its observers share it without a copy: every part
 * is frozen (history entries are frozen when the memory takes them, so a copy of the memory's
 * array needs no walk; the tool definitions when the registry lists them). Only the memory's own
 * array, `lent` to a provider that borrows requests when nobody else sees them, stays open.
 */
function sealRequest(request: ModelRequest, history: HistoryHandling, definitions: readonly ToolDefinition[]): void {
  freezeParts(request, history, definitions);
  if (request.cacheBreakpoints) deepFreeze(request.cacheBreakpoints);
  Object.freeze(request);
  if (history !== "lent") vouchFrozenThrough(request);
}

type HistoryHandling = "lent" | "memory" | "other";

/** Freezes the request's tools and, unless lent, its messages (frozen parts are taken as done). */
function freezeParts(request: ModelRequest, history: HistoryHandling, definitions: readonly ToolDefinition[]): void {
  if (request.tools !== definitions) deepFreeze(request.tools);
  if (history === "memory") Object.freeze(request.messages);
  else if (history === "other") deepFreeze(request.messages);
}

/** `afterLlmCall` on a raw reply (a fresh one, or one a resumed durable run took from its journal); `pushText` streams the processed text. */
export async function processReply(
  services: EngineServices,
  raw: ProviderResponse,
  sink: RunSink,
  pushText: boolean,
): Promise<ProviderResponse> {
  const { middleware } = services;
  const processed = middleware.has("afterLlmCall") ? await middleware.afterLlmCall(raw) : raw;
  if (pushText) {
    for (const block of processed.content) {
      if (block.type === "reasoning") sink.push({ type: "reasoning_delta", text: block.text });
      if (block.type === "text") sink.push({ type: "text_delta", text: block.text });
    }
  }
  return processed;
}

/**
 * Whether the request may outlive the call, so it must carry its own copy of the history
 * (memory grows after the call): an LLM_REQUEST observer or a wrapModelCall middleware may keep
 * it, and so may any provider that does not say it only borrows requests. Otherwise the copy,
 * O(history) per call, is skipped.
 */
function mayKeepRequest(services: EngineServices): boolean {
  return (
    !services.provider.borrowsRequests ||
    services.hooks.hasObservers(HookEvent.LLM_REQUEST) ||
    services.middleware.has("wrapModelCall")
  );
}

/**
 * The request along the agent's routes (`engine/fallback.ts` decides when to move on): each
 * provider with its own retries and model; `onAnswer` learns which one answered.
 */
async function askRoutes(
  services: EngineServices,
  routes: readonly ProviderRoute[],
  request: ModelRequest,
  input: ModelCallInput,
  onAnswer: (route: ProviderRoute) => void,
): Promise<ProviderResponse> {
  const { response, route } = await answerInOrder(
    routes,
    (route) => {
      const routed =
        route === routes[0] ? request : { ...request, model: route.model, stream: streams(route.provider, input.sink) };
      return askProvider(services, route.provider, routed, input);
    },
    {
      onDiscarded: async (reply, route) =>
        input.onUsage(
          reply.usage,
          await services.pricer.price(reply.usage, reply.model || route.model, reply.provider || route.provider.name),
        ),
      onFallback: (detail) => input.onFallback?.(detail),
    },
  );
  onAnswer(route);
  return response;
}

function streams(provider: ModelProvider, sink: RunSink): boolean {
  return sink.streaming && typeof provider.stream === "function";
}
