import t from 'tap';
import { passHatK } from '../../scoring/pass-k.js';

t.test('pass^k is C(c,k)/C(n,k): all successes stay at 1, one failure makes pass^n 0', async (t) => {
  t.same(passHatK([true, true, true]), [
    { k: 1, pass: 1 },
    { k: 2, pass: 1 },
    { k: 3, pass: 1 },
  ]);
  const mixed = passHatK([true, true, false, true]);
  t.equal(mixed[0]!.pass, 0.75, 'pass^1 is the success rate');
  t.equal(mixed[1]!.pass, 3 / 6, 'C(3,2)/C(4,2)');
  t.equal(mixed[3]!.pass, 0, 'pass^4 with one failure');
  t.same(passHatK([]), []);
  t.same(passHatK([false]), [{ k: 1, pass: 0 }]);
});
