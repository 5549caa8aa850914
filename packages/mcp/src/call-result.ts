import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type Block = CallToolResult["content"][number];

/** One content block as the text the model reads: text as is, media and resources by what they are. */
function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[resource ${block.name}: ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ""}]`;
    case "resource": {
      const r = block.resource;
      return "text" in r && typeof r.text === "string"
        ? r.text
        : `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}, binary]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/** A call's result as one text: its blocks in order, or its structured content when it has no blocks. */
export function resultText(result: CallToolResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  if (blocks.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return blocks.map(blockText).join("\n");
}
