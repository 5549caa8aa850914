// `harnessx/convert`: see `@harnessx/exporters/convert` (its optional peers must be installed).
export * from "@harnessx/exporters/convert";
