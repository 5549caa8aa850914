/** An Error as data, with the fields harnessx errors carry. */
export function errorToJson(error: Error): Record<string, unknown> {
  const fields = error as Error & { code?: unknown; kind?: unknown; status?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { name: error.name, message: error.message };
  if (fields.code !== undefined) out.code = fields.code;
  if (fields.kind !== undefined) out.kind = fields.kind;
  if (fields.status !== undefined) out.status = fields.status;
  if (error.stack !== undefined) out.stack = error.stack;
  if (fields.cause !== undefined)
    out.cause =
      fields.cause instanceof Error ? { name: fields.cause.name, message: fields.cause.message } : fields.cause;
  return out;
}
