// What other packages' tests use of the recorder's test support: `@harnessx/recorder/test-support` (source only, never built).
export {
  membersOf,
  bundleText,
  tarOf,
  writeTar,
  withMember,
  manifestOf,
  reseal,
  type TarMember,
} from "./bundle-surgery.js";
export {
  mutate,
  dataRegions,
  hostileMutation,
  anyMutation,
  sampleOf,
  type BundleSample,
  type Mutation,
} from "./bundle-mutations.js";
export { eventLine, runManifest, writeHandMadeRun } from "./hand-made-run.js";
export { recordWeatherRun, WEATHER_RUN, type WeatherRunOptions } from "./ai-sdk-runs.js";
export { recordAgentsWeatherRun, AGENTS_WEATHER_RUN, type AgentsWeatherRunOptions } from "./openai-agents-runs.js";
export { crashInPay, durableAgent, DURABLE_SCRIPT } from "./durable-runs.js";
export { killedDurableRun } from "./durable-process.js";
export { startLocalS3, S3RVER_CREDENTIALS, type LocalS3 } from "./s3-server.js";
export {
  padded,
  withDenseEventLines,
  withHugeEventLine,
  withHugeManifest,
  writeRunWithHugeLine,
  rewriteRunsFile,
} from "./huge-inputs.js";
