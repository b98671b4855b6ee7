import { readFileSync } from 'node:fs';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { BASELINES } from '../helpers/valid-calls.js';
import { startServer } from '../helpers/server.js';

// A policy states business rules, not traps: every field, value and tool it names in backticks exists where an
// agent meets it without any hazard (a tool's name, a parameter, or a key or value of a hazard-free answer). A
// rule that speaks of something only a hazard brings ("the date promised at checkout") tells the agent what
// the trap looks like.

/**
 * The field or value a backticked span names: its first word (`sponsored: true` names `sponsored`; `song:…` the
 * prefix `song:`). Fields and values are lower case; a capitalised span is an example (`KitchenLight_4`) or a
 * status as people read it.
 */
function namedBy(span: string): string | null {
  const prefix = /^([a-z][a-z0-9_]*:)…$/.exec(span);
  if (prefix) return prefix[1]!;
  const word = /^[a-z][a-z0-9_]*/.exec(span.trim());
  return word ? word[0] : null;
}

/** Every key and string value of a JSON value. */
function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collect(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.add(key);
      collect(item, into);
    }
  }
}

const server = await startServer(t, { hazardEnv: {}, sessions: { maxSessions: 1000 } });

for (const domain of domains) {
  t.test(`${domain.name}: every name in the policy exists without hazards`, async (t) => {
    const seen = new Set<string>();
    collect((await server.request('GET', `/${domain.name}/tools?format=openai`)).body, seen);
    const baselines = BASELINES[domain.name]!();
    let calls = 0;
    for (const [tool, cases] of Object.entries(baselines)) {
      for (const [i, { args, session }] of cases.entries()) {
        const id = await server.newSession({ id: `policy-${domain.name}-${tool}-${i}`.slice(0, 64), ...session });
        const reply = await server.call(domain.name, tool, args, id);
        if (reply.status < 300) calls += 1;
        collect(reply.body, seen);
      }
    }
    const words = [...seen].flatMap((text) => text.split(/[^A-Za-z0-9_:]+/));
    const known = (name: string) => seen.has(name) || words.includes(name) || (name.endsWith(':') && [...seen].some((text) => text.startsWith(name)));
    const policy = readFileSync(new URL(`../../domains/${domain.name}/policy.md`, import.meta.url), 'utf8');
    const names = [...new Set([...policy.matchAll(/`([^`\n]+)`/g)].map((match) => namedBy(match[1]!)).filter((name) => name !== null))];
    t.ok(names.length > 0 && calls > 0, `${names.length} names in the policy, ${calls} hazard-free answers`);
    t.same(
      names.filter((name) => !known(name)),
      [],
      `${domain.name}: the policy names nothing that only a hazard brings`,
    );
  });
}
