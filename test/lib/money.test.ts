import t from 'tap';
import { roundHalfEven, sumMoney } from '../../lib/money.js';

t.test('rounds like Python round(): exact binary value, ties to even', async (t) => {
  // Expected values are what CPython 3.11 prints for round(x, 2).
  t.equal(roundHalfEven(0.125), 0.12, 'exact tie goes to even');
  t.equal(roundHalfEven(0.375), 0.38, 'exact tie goes to even');
  t.equal(roundHalfEven(2.675), 2.67, 'binary value just below the tie');
  t.equal(roundHalfEven(1.005), 1, 'binary value just below the tie');
  t.equal(roundHalfEven(10.005), 10.01, 'binary value just above the tie');
  t.equal(roundHalfEven(54.045), 54.05);
  t.equal(roundHalfEven(-2.675), -2.67, 'negative values mirror positive ones');
  t.equal(roundHalfEven(-0.001), 0, 'no negative zero');
  t.equal(roundHalfEven(1234.5, 0), 1234);
  t.equal(roundHalfEven(1235.5, 0), 1236);
  t.equal(roundHalfEven(99.999), 100);
  t.equal(roundHalfEven(1e21), 1e21, 'values beyond 2^53 have no decimals to round');
  t.equal(roundHalfEven(Infinity), Infinity);
});

t.test('sums money to cents', async (t) => {
  t.equal(sumMoney([0.1, 0.2]), 0.3);
  t.equal(sumMoney([]), 0);
});
