import t from 'tap';
import { startServer } from '../../helpers/server.js';

t.test('calculate (shared, served under /retail)', async (t) => {
  const server = await startServer(t);
  const calculate = async (expression: unknown, session?: string) => server.call('retail', 'calculate', { expression }, session);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;

  t.test('returns Python\'s str(round(float(result), 2)): "4.0" for "2 + 2"', async (t) => {
    const reply = await calculate('2 + 2');
    t.equal(reply.status, 200);
    t.equal(reply.body, '4.0');
    t.match(reply.headers['content-type'], /application\/json/);
  });

  t.test("arithmetic with Python's precedence and operators", async (t) => {
    const cases: [string, string][] = [
      ['(129.99 - 20) * 2', '219.98'],
      ['3 * (4 + 5) / 2 - 1', '12.5'],
      ['-5 / 2', '-2.5'],
      ['7', '7.0'],
      ['5.', '5.0'],
      [' .5 ', '0.5'],
      ['2*-3', '-6.0'],
      ['--3', '3.0'],
      ['2 ** 10', '1024.0'],
      ['-2 ** 2', '-4.0'],
      ['2 ** -1', '0.5'],
      ['7 // 2', '3.0'],
      ['-7 // 2', '-4.0'],
      ['0.1 + 0.2', '0.3'],
      ['1 - 0.9', '0.1'],
      ['10000000000000000 * 1', '1e+16'],
      ['2 ** 100', '1.2676506002282294e+30'],
      ['10 ** 21', '1e+21'],
    ];
    for (const [expression, expected] of cases) t.equal((await calculate(expression)).body, expected, expression);
  });

  t.test('rounds to 2 decimals like Python: half to even, on the exact binary value', async (t) => {
    const cases: [string, string][] = [
      ['10 / 3', '3.33'],
      ['2 / 3', '0.67'],
      ['1 / 8', '0.12'], // 0.125 is an exact tie: to even
      ['3 / 8', '0.38'], // 0.375 is an exact tie: to even
      ['2.675 * 1', '2.67'], // 2.675 is stored just below the tie
      ['1.005 * 1000', '1005.0'],
      ['0.00001', '0.0'],
      ['1 / 3 * 3', '1.0'],
    ];
    for (const [expression, expected] of cases) t.equal((await calculate(expression)).body, expected, expression);
  });

  t.test('anything but digits, + - * / ( ) . and spaces is "Invalid characters in expression" (422), never evaluated', async (t) => {
    const session = await server.newSession();
    const attempts = [
      "__import__('os').system('ls')",
      'process.exit(1)',
      'globalThis.x = 1',
      'Math.PI * 2',
      '2 + x',
      '1e5',
      '2 % 3',
      '2 ^ 3',
      '[1] + 1',
      '1;2',
      '0x10',
      '2\n+ 2',
      '½',
    ];
    for (const expression of attempts) {
      const reply = await calculate(expression, session);
      t.equal(reply.status, 422, JSON.stringify(expression));
      t.equal(reply.body.detail, 'Invalid characters in expression');
      t.equal(reply.body.code, 'invalid_characters');
    }
    t.same(await diff(session), [], 'nothing changed');
  });

  t.test('division by zero and malformed expressions are 422 errors', async (t) => {
    for (const expression of ['1 / 0', '1 // 0', '4 / -0', '1 / (2 - 2)']) {
      const reply = await calculate(expression);
      t.equal(reply.status, 422, expression);
      t.equal(reply.body.detail, 'Division by zero');
    }
    for (const expression of ['(1 + 2', '1 +', '1 2', '()', '', '   ', '1.2.3', '* 2']) {
      const reply = await calculate(expression);
      t.equal(reply.status, 422, JSON.stringify(expression));
      t.match(reply.body.detail, /^Invalid expression: /);
      t.equal(reply.body.code, 'invalid_expression');
    }
    const huge = await calculate('10 ** 400');
    t.equal(huge.status, 422);
    t.equal(huge.body.detail, 'The result is too large to represent');
    const complex = await calculate('(-1) ** 0.5');
    t.equal(complex.status, 422);
    t.equal(complex.body.detail, 'The result is not a real number');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const cases = [
      { args: {}, field: 'expression' },
      { args: { expression: 4 }, field: 'expression' },
      { args: { expression: '2 + 2', precision: 4 }, field: 'precision' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'calculate', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
  });
});
