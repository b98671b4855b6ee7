import t from 'tap';
import { z } from 'zod';
import type { Domain } from '../../domains/domain.js';
import { defineTool } from '../../domains/tool.js';
import { Registry } from '../../server/core/registry.js';

const tool = (name: string) =>
  defineTool({ name, description: name, input: z.strictObject({}), output: z.string(), errors: [], mutates: false, run: () => name });
const domain = (name: string, tools: ReturnType<typeof tool>[]): Domain =>
  ({
    name,
    title: name,
    summary: name,
    tools,
    database: z.any(),
    complete: (f) => f,
    policyFile: new URL('file:///x'),
    fixtureFile: new URL('file:///x'),
  }) as Domain;

t.test('combined names: shared tools stay one, clashing names are qualified by domain', async (t) => {
  const shared = tool('calculate');
  const registry = new Registry([
    domain('retail', [tool('get_user_details'), shared, tool('checkout')]),
    domain('airline', [tool('get_user_details'), shared, tool('book_reservation')]),
  ]);
  t.same([...registry.combined.keys()].sort(), ['airline__get_user_details', 'book_reservation', 'calculate', 'checkout', 'retail__get_user_details']);
  t.equal(registry.combined.get('calculate')!.domain.name, 'retail', 'a shared tool runs in the first domain that lists it');
  t.equal(registry.byDomain.get('airline')!.get('get_user_details')!.combinedName, 'airline__get_user_details');
  t.throws(() => new Registry([domain('x', [tool('a'), tool('a')])]), /lists a twice/);
});
