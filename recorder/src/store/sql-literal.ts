/** A SQL string literal (single quotes doubled). */
export const sqlString = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** A SQL list literal of strings. */
export const sqlList = (items: readonly string[]): string => `[${items.map(sqlString).join(", ")}]`;
