import t from 'tap';
import { checkFacts, numbersIn, sameNumber, states } from '../../scoring/answer.js';

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
