/**
 * How much an extension is trusted, by where it came from: `builtin` (passed in by the
 * application's code), `user` (the user's own folder, `~/.harnessx/extensions/`) or
 * `project` (a project's `.harnessx/extensions/`, loaded only once the project is trusted).
 */
export type TrustLevel = "builtin" | "user" | "project";
