import { z } from 'zod';

// The shapes buildListing (listings.ts) answers in, one per format, as the documents declare them.

const JsonSchema = z.object({}).catchall(z.unknown()).describe('A JSON Schema (2020-12).');
const name = z.string().describe('The tool name, as the operation that calls it is named.');
const description = z.string();

const Native = z
  .object({
    tools: z.array(
      z.object({
        name,
        description,
        mutates: z.boolean().describe('True when the tool writes.'),
        endpoint: z.string().describe('Where to POST its arguments.'),
        input_schema: JsonSchema,
        output_schema: JsonSchema,
      }),
    ),
  })
  .describe('format=native');

const OpenAi = z
  .array(z.object({ type: z.literal('function'), function: z.object({ name, description, parameters: JsonSchema }) }))
  .describe('format=openai: Chat Completions "tools".');

const Anthropic = z.array(z.object({ name, description, input_schema: JsonSchema })).describe('format=anthropic: Messages API "tools".');

const Mcp = z
  .object({
    tools: z.array(
      z.object({
        name,
        description,
        inputSchema: JsonSchema,
        outputSchema: JsonSchema.optional().describe('For a tool whose result is an object.'),
        annotations: z.object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), openWorldHint: z.boolean() }),
      }),
    ),
  })
  .describe('format=mcp: an MCP tools/list result.');

/** A tool listing, in the shape its format asks for. */
export const Listing = z.union([Native, OpenAi, Anthropic, Mcp]).describe('The tools, in the shape the format asks for.');
