import t from 'tap';
import { deepFreeze } from '../../lib/freeze.js';
import { jsonText } from '../../lib/json-text.js';

t.test('a frozen record is serialized once: the same text object each time, equal to JSON.stringify', async (t) => {
  const record = deepFreeze({ id: 'o1', items: [{ price: 24.81 }], note: null });
  const first = jsonText(record);
  t.equal(first, JSON.stringify(record));
  const stringify = JSON.stringify;
  let calls = 0;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    calls++;
    return stringify(...args);
  }) as typeof JSON.stringify;
  try {
    t.equal(jsonText(record), first, 'the same text');
    t.equal(calls, 0, 'not serialized again');
  } finally {
    JSON.stringify = stringify;
  }
});

t.test('an object that may change is serialized at every call', async (t) => {
  const draft: { status: string } = { status: 'pending' };
  t.equal(jsonText(draft), '{"status":"pending"}');
  draft.status = 'cancelled';
  t.equal(jsonText(draft), '{"status":"cancelled"}', 'the change shows');
});

t.test('values that are not objects, and undefined', async (t) => {
  t.equal(jsonText('a'), '"a"');
  t.equal(jsonText(3), '3');
  t.equal(jsonText(null), 'null');
  t.equal(jsonText(undefined), 'null', 'undefined is sent as null');
});
