import { importOptional } from "@harnessx/core/extension";

/**
 * The exporters' converters need parts of OpenTelemetry, and the LangSmith push the `langsmith`
 * client: optional peers, installed by the apps that convert or push, loaded by those commands
 * only. Without them the command fails with `MissingPackageError` naming what to install.
 */
const OTLP_PACKAGES = [
  "@opentelemetry/core",
  "@opentelemetry/resources",
  "@opentelemetry/otlp-transformer",
  "@opentelemetry/otlp-exporter-base",
];

/** `@harnessx/exporters/convert` for `feature` (`trace convert`, `trace push --otlp`). */
export const loadConverters = (feature: string) =>
  importOptional(import.meta.url, { feature, packages: OTLP_PACKAGES }, () => import("@harnessx/exporters/convert"));

/** `@harnessx/exporters/langsmith`, for `trace push --langsmith`. */
export const loadLangSmith = () =>
  importOptional(
    import.meta.url,
    { feature: "trace push --langsmith", packages: ["langsmith"] },
    () => import("@harnessx/exporters/langsmith"),
  );
