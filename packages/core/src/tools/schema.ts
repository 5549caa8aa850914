import { createRequire } from "node:module";
import type { Ajv, ValidateFunction } from "ajv";
import type { z } from "zod";
import { ToolRegistrationError } from "../errors.js";

// ajv and zod load on the first schema that needs them: a tenth of a second every process that
// registers no tool (a `trace` command, a reader of recordings) would otherwise pay.
const load = createRequire(import.meta.url);
let validator: Ajv | undefined;

function ajv(): Ajv {
  if (!validator) {
    const { Ajv: AjvClass } = load("ajv") as typeof import("ajv");
    validator = new AjvClass({ allErrors: true, strict: false, coerceTypes: false });
  }
  return validator;
}

/** A JSON Schema document as a plain object; a tool's must describe an object (`type: "object"`). */
export type JsonSchema = Record<string, unknown>;

/** A zod v4 schema; recognised by the `_zod` marker every v4 schema carries. */
export type ZodSchema = z.ZodType;

/** A tool input schema in either form `compileSchema` accepts. */
export type InputSchema = JsonSchema | ZodSchema;

/** The result of checking a tool's input against its schema. */
export type ValidationOutcome =
  | {
      /** The input is valid. */
      ok: true;
      /** The input to hand the tool: as given for JSON Schema, zod's parsed output for zod. */
      value: Record<string, unknown>;
    }
  | {
      /** The input is invalid. */
      ok: false;
      /** One readable line per problem, each naming where in the input (`input.path ...`). */
      problems: string[];
    };

/** A tool's input schema: the JSON Schema sent to providers and the validator applied to model input. */
export interface CompiledSchema {
  /** The JSON Schema sent to providers (converted to draft-7 from a zod schema, without `$schema`). */
  jsonSchema: JsonSchema;
  /** Checks an input; never throws for invalid input. */
  validate(input: unknown): ValidationOutcome;
}

/** True for a zod v4 schema (it has the `_zod` marker); anything else is taken for JSON Schema. */
export function isZodSchema(schema: unknown): schema is ZodSchema {
  return typeof schema === "object" && schema !== null && "_zod" in schema;
}

/**
 * Compiles a tool's input schema (JSON Schema through ajv, or zod v4) into its JSON Schema and
 * validator. Undefined compiles to an object schema that accepts any properties.
 * @param toolName - Named in the errors.
 * @throws ToolRegistrationError when the schema is not an object schema or cannot be compiled.
 */
export function compileSchema(toolName: string, schema: InputSchema | undefined): CompiledSchema {
  if (schema === undefined) return compileJsonSchema(toolName, { type: "object", properties: {} });
  if (isZodSchema(schema)) return compileZod(toolName, schema);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new ToolRegistrationError(`tool "${toolName}": inputSchema must be a JSON Schema object or a zod schema`);
  }
  return compileJsonSchema(toolName, schema);
}

function compileJsonSchema(toolName: string, schema: JsonSchema): CompiledSchema {
  if (schema.type !== undefined && schema.type !== "object") {
    throw new ToolRegistrationError(
      `tool "${toolName}": inputSchema must describe an object (type "object"), got type ${JSON.stringify(schema.type)}`,
    );
  }
  let check: ValidateFunction;
  try {
    check = ajv().compile(schema);
  } catch (err) {
    throw new ToolRegistrationError(
      `tool "${toolName}": inputSchema is not a valid JSON Schema: ${(err as Error).message}`,
    );
  }
  return {
    jsonSchema: schema,
    validate(input) {
      if (check(input)) return { ok: true, value: input as Record<string, unknown> };
      const problems = (check.errors ?? []).map((e) => {
        const where = e.instancePath ? `input${e.instancePath.replace(/\//g, ".")}` : "input";
        const extra = e.keyword === "additionalProperties" ? ` ("${String(e.params.additionalProperty)}")` : "";
        return `${where} ${e.message ?? "is invalid"}${extra}`;
      });
      return { ok: false, problems };
    },
  };
}

function compileZod(toolName: string, schema: ZodSchema): CompiledSchema {
  let jsonSchema: JsonSchema;
  try {
    jsonSchema = (load("zod") as typeof import("zod")).z.toJSONSchema(schema, { target: "draft-7" }) as JsonSchema;
  } catch (err) {
    throw new ToolRegistrationError(
      `tool "${toolName}": zod schema cannot be converted to JSON Schema: ${(err as Error).message}`,
    );
  }
  delete jsonSchema.$schema;
  return {
    jsonSchema,
    validate(input) {
      const parsed = schema.safeParse(input);
      if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
      const problems = parsed.error.issues.map((issue) => {
        const where = issue.path.length ? `input.${issue.path.map(String).join(".")}` : "input";
        return `${where}: ${issue.message}`;
      });
      return { ok: false, problems };
    },
  };
}
