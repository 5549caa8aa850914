// `harnessx/langsmith`: see `@harnessx/exporters/langsmith` (its optional peers must be installed).
export * from "@harnessx/exporters/langsmith";
