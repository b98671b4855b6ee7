import t from 'tap';
import { z } from 'zod';
import { field, ruleOf } from '../../lib/answer-fields.js';
import { checkFacts, compareAnswer, numbersIn, sameNumber, states } from '../../scoring/answer.js';

t.test('numbers are matched by value wherever they are written', async (t) => {
  t.same(numbersIn('Refund $1,234.50 and 100.0 units, -3 degrees'), [1234.5, 100, -3]);
  t.ok(states('The total is $100.00.', 100), '100 == $100.00');
  t.ok(states('The total is 100', '100.0'), 'a number written as a string is a number');
  t.notOk(states('The total is 1000', 100), '1000 is not 100');
  t.notOk(states('Order #W5124601', 512), 'a number inside an id is not another number');
  t.ok(sameNumber(0.1 + 0.2, 0.3), 'float noise aside');
  t.notOk(sameNumber(0.3, 0.31));
});

t.test('words and phrases match case- and space-insensitively', async (t) => {
  t.ok(states('Your order is  CANCELLED\nnow', 'cancelled now'));
  t.notOk(states('Your order is pending', 'cancelled'));
});

t.test('a fact check lists what is missing and what is stated but excluded', async (t) => {
  t.same(checkFacts('Order #W1 is cancelled; refund 24.81 to paypal', ['#W1', 24.81, 'credit_card'], ['paypal', 'gift card']), {
    missing: ['credit_card'],
    stated_but_excluded: ['paypal'],
  });
});

// ---- typed answers

const Answer = z.strictObject({
  order_id: field.id('The order.'),
  name: field.text('Who.'),
  status: field.choice(['pending', 'cancelled'], 'Its status.'),
  total: field.money('Its total.'),
  degrees: field.number('The temperature.', 0.1),
  items: field.count('How many items.'),
  tracking: field.set(field.id('A tracking id.'), 'Every package.'),
  stops: field.list(field.text('An airport.'), 'The stops, in order.'),
  refunds: field.set(z.strictObject({ to: field.id('Where.'), amount: field.money('How much.') }), 'Every refund.'),
  note: field.nullable(field.text('A note.')),
  plain: z.array(z.string()),
});
const rule = ruleOf(Answer);
const expected = {
  order_id: '#W1',
  name: 'Zoë Müller',
  status: 'cancelled',
  total: 24.81,
  degrees: 18.2,
  items: 3,
  tracking: ['T1', 'T2'],
  stops: ['JFK', 'ORD'],
  refunds: [
    { to: 'card_1', amount: 10 },
    { to: 'gift_1', amount: 14.81 },
  ],
  note: null,
  plain: ['a', 'b'],
};
const paths = (got: unknown) => compareAnswer(rule, expected, got).map((difference) => difference.path);

t.test('the rules come from the fields: exact ids, folded text, money to the cent, tolerances, sets and lists', async (t) => {
  t.same(rule.type === 'object' && rule.fields['plain'], { type: 'set', item: { type: 'text' } }, 'a plain array is a set; a plain string is text');
  t.same(paths(expected), [], 'the same answer');
  const reworded = {
    ...expected,
    name: '  zoe   MULLER ',
    total: 24.8149,
    degrees: 18.25,
    tracking: ['T2', 'T1'],
    refunds: [...expected.refunds].reverse(),
    plain: ['B', 'a'],
  };
  t.same(paths(reworded), [], 'case, accents and spaces of text; half a cent; within the tolerance; sets in any order');
  t.same(paths({ ...expected, order_id: '#w1' }), ['order_id'], 'ids are exact');
  t.same(paths({ ...expected, total: 24.82 }), ['total'], 'a cent off');
  t.same(paths({ ...expected, degrees: 18.4 }), ['degrees'], 'beyond the tolerance');
  t.same(paths({ ...expected, total: '24.81' }), ['total'], 'a number written as a string is not a number');
  t.same(paths({ ...expected, stops: ['ORD', 'JFK'] }), ['stops.0', 'stops.1'], 'a list keeps its order');
  t.same(paths({ ...expected, stops: ['JFK'] }), ['stops'], 'a list of another length');
  t.same(paths({ ...expected, tracking: ['T1', 'T2', 'T3'] }), ['tracking'], 'a set with an extra item');
  t.same(paths({ ...expected, tracking: ['T1', 'T1'] }), ['tracking'], 'a set with an item twice for two');
  t.same(
    paths({
      ...expected,
      refunds: [
        { to: 'card_1', amount: 10 },
        { to: 'gift_1', amount: 14 },
      ],
    }),
    ['refunds'],
    'sets of objects match item by item',
  );
  t.same(paths({ ...expected, note: 'hi' }), ['note'], 'null expected');
  t.same(paths({ ...expected, note: undefined }), [], 'absent is null');
  t.same(paths({ ...expected, status: 'pending' }), ['status']);
});

t.test('a field missing, a field the schema does not name, and an answer that is not an object', async (t) => {
  const { total: _total, ...missing } = expected;
  t.same(paths(missing), ['total'], 'a missing field');
  t.same(
    compareAnswer(rule, expected, { ...expected, extra: 'all the values I saw' }),
    [{ path: 'extra', expected: undefined, got: 'all the values I saw' }],
    'an extra field',
  );
  t.same(paths('Order #W1 is cancelled'), ['(answer)'], 'words are not an answer');
  t.same(paths(null), ['(answer)']);
});
