// `harnessx/otel-setup`: see `@harnessx/exporters/otel-setup` (its optional peers must be installed).
export * from "@harnessx/exporters/otel-setup";
