export * from "./self-hosted/index.js";
