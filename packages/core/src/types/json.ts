/** JSON-compatible data: what `onSaveSession` may return and what sessions hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
