import { readFileSync } from 'node:fs';
import t from 'tap';
import { domains } from '../../domains/index.js';

// The MCP client configurations are not run here (no desktop client, and the endpoint is served
// elsewhere); this checks their shape and that they name only routes and domains wildtools has.

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../examples/mcp/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;
const domainNames = domains.map((domain) => domain.name);

interface Entry {
  url?: string;
  type?: string;
  command?: string;
  args?: string[];
}

/** What is wrong with one server entry, or an empty list. */
function problems(entry: Entry): string[] {
  if (entry.url !== undefined) {
    const url = new URL(entry.url);
    const [first, second] = url.pathname.split('/').filter(Boolean);
    const route = first === 'mcp' && second === undefined ? 'combined' : second === 'mcp' && domainNames.includes(first ?? '') ? 'domain' : undefined;
    return [
      ...(url.origin === 'http://127.0.0.1:8080' ? [] : [`${entry.url} is not the default server`]),
      ...(route ? [] : [`${entry.url} is not /mcp or /{domain}/mcp`]),
    ];
  }
  const args = entry.args ?? [];
  if (entry.command === 'wildtools') {
    const [sub, flag, domain] = args;
    return sub === 'mcp' && flag === '--domain' && domainNames.includes(domain ?? '') ? [] : [`wildtools ${args.join(' ')} is not "mcp --domain <domain>"`];
  }
  if (entry.command === 'npx' && args.includes('mcp-remote')) return problems({ url: args.at(-1) ?? '' });
  return [`unknown command ${entry.command}`];
}

for (const [file, key] of [
  ['claude_desktop_config.json', 'mcpServers'],
  ['cursor-mcp.json', 'mcpServers'],
  ['vscode-mcp.json', 'servers'],
] as const) {
  t.test(`${file} lists servers under "${key}" that name wildtools' MCP routes`, async (t) => {
    const config = read(file);
    t.same(Object.keys(config), [key]);
    const entries = Object.entries(config[key] as Record<string, Entry>);
    t.ok(entries.length >= 2, 'an HTTP and a stdio entry at least');
    for (const [name, entry] of entries) t.same(problems(entry), [], name);
    if (file === 'claude_desktop_config.json')
      t.notOk(
        entries.some(([, entry]) => entry.url),
        'Claude Desktop takes stdio entries only',
      );
  });
}

t.test('the check refuses what is not a wildtools MCP route', async (t) => {
  t.same(problems({ url: 'http://127.0.0.1:8080/retail/tools' }), ['http://127.0.0.1:8080/retail/tools is not /mcp or /{domain}/mcp']);
  t.same(problems({ url: 'http://127.0.0.1:9/mcp' }), ['http://127.0.0.1:9/mcp is not the default server']);
  t.same(problems({ command: 'wildtools', args: ['mcp', '--domain', 'bank'] }), ['wildtools mcp --domain bank is not "mcp --domain <domain>"']);
  t.same(problems({ command: 'npx', args: ['-y', 'mcp-remote', 'http://127.0.0.1:8080/shop/mcp'] }), [
    'http://127.0.0.1:8080/shop/mcp is not /mcp or /{domain}/mcp',
  ]);
  t.same(problems({ command: 'node' }), ['unknown command node']);
});
