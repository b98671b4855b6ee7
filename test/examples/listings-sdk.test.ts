import type { Tool as AnthropicSdkTool } from '@anthropic-ai/sdk/resources/messages';
import { ListToolsResultSchema, type Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { contractOf } from '../../hazards/contract.js';
import type { ToolContract } from '../../hazards/kind.js';
import { anthropicToolOf, chatCompletionsToolOf, mcpToolOf, responsesToolOf } from '../../server/core/listings.js';
import { CONTRACT_HAZARDS, changedSession, LISTING_PATHS } from '../helpers/listing-views.js';
import { startServer } from '../helpers/server.js';

// The listings against the official SDKs' types: the builders' results are assigned to the SDK types
// (a shape that does not fit fails `tsc --noEmit`), and the served listings are checked at run time.

const sdkChat = (contract: ToolContract, strict: boolean): ChatCompletionTool => chatCompletionsToolOf(contract, strict);
const sdkResponses = (contract: ToolContract, strict: boolean): FunctionTool => responsesToolOf(contract, strict);
const sdkAnthropic = (contract: ToolContract): AnthropicSdkTool => anthropicToolOf(contract);
const sdkMcp = (contract: ToolContract): McpSdkTool => mcpToolOf(contract);

const keysOf = (value: object) => Object.keys(value).sort();

t.test('the builders give what the SDK types describe', async (t) => {
  for (const domain of domains) {
    for (const tool of domain.tools) {
      const contract = contractOf(tool);
      for (const strict of [false, true]) {
        const chat = sdkChat(contract, strict);
        t.equal(chat.type, 'function');
        if (chat.type === 'function') t.equal(chat.function.strict ?? false, strict);
        t.equal(sdkResponses(contract, strict).strict, strict);
      }
      t.equal(sdkAnthropic(contract).input_schema.type, 'object');
      t.equal(sdkMcp(contract).inputSchema.type, 'object');
    }
  }
});

t.test('every served listing has the shapes the SDKs define, and every mcp listing parses as a tools/list result', async (t) => {
  const server = await startServer(t, { hazardEnv: CONTRACT_HAZARDS });
  const session = await changedSession(server);
  for (const prefix of ['', `/s/${session}`]) {
    for (const path of LISTING_PATHS) {
      const where = `${prefix}${path}`;
      const mcp = (await server.request('GET', `${where}?format=mcp`)).body;
      t.strictSame(ListToolsResultSchema.parse(mcp), mcp, `${where}: ListToolsResultSchema takes the mcp listing whole`);
      for (const strict of ['false', 'true']) {
        for (const entry of (await server.request('GET', `${where}?format=openai&strict=${strict}`)).body) {
          t.strictSame(keysOf(entry), ['function', 'type']);
          t.strictSame(keysOf(entry.function), strict === 'true' ? ['description', 'name', 'parameters', 'strict'] : ['description', 'name', 'parameters']);
        }
        for (const entry of (await server.request('GET', `${where}?format=openai-responses&strict=${strict}`)).body) {
          t.strictSame(keysOf(entry), ['description', 'name', 'parameters', 'strict', 'type']);
          t.equal(entry.strict, strict === 'true');
        }
      }
      for (const entry of (await server.request('GET', `${where}?format=anthropic`)).body) {
        t.strictSame(keysOf(entry), ['description', 'input_schema', 'name']);
        t.equal(entry.input_schema.type, 'object');
        t.match(entry.name, /^[a-zA-Z0-9_-]{1,64}$/);
      }
    }
  }
});
