const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Controls other than tab, line feed and carriage return: their presence means bytes, not text. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Binary data as JSON that cannot carry a secret past redaction: text (valid UTF-8) is kept as
 * redacted text; other bytes are kept as base64 only when their Latin-1 reading holds nothing
 * redaction would touch, else only their size is kept.
 */
export function binaryToJson(view: ArrayBufferView, redactText: (text: string) => string): Record<string, unknown> {
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const type = view.constructor.name;
  const text = decodeText(bytes);
  if (text !== undefined) return { type, bytes: bytes.byteLength, text: redactText(text) };
  const latin1 = bytes.toString("latin1");
  if (redactText(latin1) !== latin1) return { type, bytes: bytes.byteLength, content: "[REDACTED:binary]" };
  return { type, bytes: bytes.byteLength, base64: bytes.toString("base64") };
}

function decodeText(bytes: Buffer): string | undefined {
  try {
    const text = utf8.decode(bytes);
    return CONTROL.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

/** `{ type: "Buffer", data: [...] }`: what `Buffer#toJSON` made of a Buffer before a replacer could see it. */
export function isSerializedBuffer(value: object): value is { type: "Buffer"; data: number[] } {
  const candidate = value as { type?: unknown; data?: unknown };
  return candidate.type === "Buffer" && Array.isArray(candidate.data) && Object.keys(value).length === 2;
}
