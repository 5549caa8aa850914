#!/usr/bin/env node
// The demo's MCP server: a shipping tracker over stdio, written with the official MCP SDK.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const SHIPMENTS: Record<string, { carrier: string; status: string; eta: string }> = {
  "A-1001": { carrier: "DHL", status: "delivered", eta: "2026-11-28" },
  "A-1002": { carrier: "UPS", status: "awaiting payment", eta: "unknown" },
};

const server = new McpServer({ name: "shipping", version: "1.0.0" });
server.registerTool(
  "track_order",
  { description: "Tracks the shipment of an order by its id (A-1001...).", inputSchema: { orderId: z.string() } },
  async ({ orderId }) => {
    const shipment = SHIPMENTS[orderId];
    if (!shipment) return { isError: true, content: [{ type: "text", text: `no shipment for order ${orderId}` }] };
    return { content: [{ type: "text", text: JSON.stringify({ orderId, ...shipment }) }] };
  },
);
await server.connect(new StdioServerTransport());
