// What core reads of secretlint's recommended preset: `#secretlint-preset` (core's package.json
// "imports") is the package itself in source mode and the copy in dist/vendor/ otherwise.
// secret-shapes.ts states the shape of a rule it drives.
export declare const rules: readonly unknown[];
