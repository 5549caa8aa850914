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

/**
 * Binary data as a model reads it: its text when it is UTF-8 text, else its base64 (never the
 * array of numbers `Buffer#toJSON` writes, which hides a secret from redaction and means nothing
 * to a model). `nested`: binary inside a larger value, whose base64 says what it is.
 */
export function binaryForModel(
  view: ArrayBufferView,
  nested: boolean,
): string | { type: string; bytes: number; base64: string } {
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
  const text = decodeText(bytes);
  if (text !== undefined) return text;
  return nested
    ? { type: view.constructor.name, bytes: bytes.byteLength, base64: bytes.toString("base64") }
    : bytes.toString("base64");
}

/** Binary data in any of its forms (a typed array, a DataView, an ArrayBuffer, a Buffer already serialized) as a view; undefined for anything else. */
export function binaryView(value: unknown): ArrayBufferView | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (ArrayBuffer.isView(value)) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return isSerializedBuffer(value) ? Buffer.from(value.data) : undefined;
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
