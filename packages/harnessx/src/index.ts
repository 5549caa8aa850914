export * from "@harnessx/core";
