import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { COMMON_ERRORS } from '../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { ArithmeticSyntaxError, evaluateArithmetic, pythonFloatString } from '../../../lib/arithmetic.js';
import { codesOf } from '../../../lib/error-catalog.js';

const ALLOWED = /^[0-9+\-*/(). ]*$/;

export default defineTool({
  name: 'calculate',
  description:
    'Evaluate an arithmetic expression and return the result rounded to 2 decimals, e.g. "4.0" for "2 + 2". ' +
    'The expression may contain digits, decimal points, + - * / ( ) and spaces.',
  input: z.strictObject({ expression: z.string().describe("The expression, e.g. '(129.99 - 20) * 2'.") }),
  output: z.string().describe('The result, rounded to 2 decimals.'),
  errors: codesOf(COMMON_ERRORS, 'invalid_characters', 'invalid_expression', 'division_by_zero', 'not_a_real_number', 'overflow'),
  mutates: false,
  example: { expression: '2 + 2' },
  run({ expression }) {
    if (!ALLOWED.test(expression)) throw toolError(COMMON_ERRORS.invalid_characters, 'Invalid characters in expression');
    let value: number;
    try {
      value = evaluateArithmetic(expression);
    } catch (error) {
      if (error instanceof ArithmeticSyntaxError) throw toolError(COMMON_ERRORS.invalid_expression, `Invalid expression: ${error.message}`);
      if (error instanceof RangeError) throw toolError(COMMON_ERRORS.division_by_zero, 'Division by zero');
      throw error;
    }
    if (Number.isNaN(value)) throw toolError(COMMON_ERRORS.not_a_real_number, 'The result is not a real number');
    if (!Number.isFinite(value)) throw toolError(COMMON_ERRORS.overflow, 'The result is too large to represent');
    return pythonFloatString(roundHalfEven(value, 2));
  },
});
