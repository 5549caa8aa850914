import { tool, type Tool } from "harnessx";

const PRODUCTS = ["kettle", "toaster", "blender", "grinder", "press", "scale"];
const REGIONS = ["north", "south", "east", "west"];

/** A deterministic sales table, large enough (~250 KB of CSV) to be spilled rather than sent to the model. */
export function salesCsv(rows = 6000): string {
  const lines = ["order_id,date,region,product,units,unit_price"];
  for (let i = 0; i < rows; i++) {
    const product = PRODUCTS[(i * 7) % PRODUCTS.length];
    const region = REGIONS[(i * 3) % REGIONS.length];
    const units = 1 + ((i * 13) % 9);
    const price = (10 + ((i * 17) % 40)).toFixed(2);
    const day = String(1 + (i % 28)).padStart(2, "0");
    lines.push(`${100000 + i},2026-10-${day},${region},${product},${units},${price}`);
  }
  return lines.join("\n");
}

export function exportSalesTool(): Tool {
  return tool({
    name: "export_sales",
    description: "export_sales returns every sales order of the quarter as CSV (large).",
    inputSchema: { type: "object", properties: { quarter: { type: "string" } }, required: ["quarter"] },
    replayPolicy: "safe",
    execute: () => salesCsv(),
  });
}
