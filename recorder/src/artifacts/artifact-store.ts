// The artifact store lives in @harnessx/artifacts. This re-export only keeps store/segment-tables.ts
// (being reworked with the span code) compiling; delete it once that file imports "@harnessx/artifacts".
export { ArtifactStore } from "@harnessx/artifacts";
