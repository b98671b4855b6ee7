import { defineErrors } from '../../lib/error-catalog.js';

/** Every code the shared utilities refuse with: its status and what it means. Tools raise them with toolError(). */
export const COMMON_ERRORS = defineErrors({
  invalid_characters: { status: 422, meaning: 'The expression may hold only digits, + - * / ( ) . and spaces: remove anything else.' },
  invalid_expression: { status: 422, meaning: 'The expression is not well-formed arithmetic (the detail says where): correct it.' },
  division_by_zero: { status: 422, meaning: 'The expression divides by zero: correct it.' },
  not_a_real_number: { status: 422, meaning: 'The result is not a real number: correct the expression.' },
  overflow: { status: 422, meaning: 'The result is too large to represent: split the computation.' },
});
