// Importing the launcher runs the `trace` command on process.argv; it exports nothing.
export {};
