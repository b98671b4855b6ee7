import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { rejected } from '../../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { ArithmeticSyntaxError, evaluateArithmetic, pythonFloatString } from '../../../lib/arithmetic.js';

const ALLOWED = /^[0-9+\-*/(). ]*$/;

export default defineTool({
  name: 'calculate',
  description:
    'Evaluate an arithmetic expression and return the result rounded to 2 decimals, e.g. "4.0" for "2 + 2". ' +
    'The expression may contain digits, decimal points, + - * / ( ) and spaces.',
  input: z.strictObject({ expression: z.string().describe("The expression, e.g. '(129.99 - 20) * 2'.") }),
  output: z.string().describe('The result, rounded to 2 decimals.'),
  mutates: false,
  run({ expression }) {
    if (!ALLOWED.test(expression)) throw rejected('Invalid characters in expression', 'invalid_characters');
    let value: number;
    try {
      value = evaluateArithmetic(expression);
    } catch (error) {
      if (error instanceof ArithmeticSyntaxError) throw rejected(`Invalid expression: ${error.message}`, 'invalid_expression');
      if (error instanceof RangeError) throw rejected('Division by zero', 'division_by_zero');
      throw error;
    }
    if (Number.isNaN(value)) throw rejected('The result is not a real number', 'not_a_real_number');
    if (!Number.isFinite(value)) throw rejected('The result is too large to represent', 'overflow');
    return pythonFloatString(roundHalfEven(value, 2));
  },
});
