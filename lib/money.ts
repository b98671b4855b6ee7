/**
 * Rounds to `places` decimals as Python's round() does: on the exact binary value, with
 * true ties going to the even neighbour. tau2-bench rounds gift-card balances and price
 * differences with round(x, 2); matching it keeps balances identical to the cent.
 */
export function roundHalfEven(value: number, places = 2): number {
  // Beyond 2^53 there are no decimals left to round (and toFixed would switch to exponents).
  if (!Number.isFinite(value) || Math.abs(value) >= 2 ** 53) return value;
  // toFixed prints the exact binary value to enough digits to tell below, at or above a tie.
  const exact = Math.abs(value).toFixed(Math.min(100, places + 30));
  const cut = exact.indexOf('.') + 1 + places;
  const kept = exact.slice(0, places > 0 ? cut : cut - 1);
  const rest = exact.slice(cut);
  const first = rest.charCodeAt(0) - 48;
  const beyondTie = /[1-9]/.test(rest.slice(1));
  const lastDigit = Number(kept.charAt(kept.length - 1));
  const up = first > 5 || (first === 5 && (beyondTie || lastDigit % 2 === 1));
  const magnitude = Number(kept) + (up ? 10 ** -places : 0);
  const result = Number((Math.sign(value) * magnitude).toFixed(places));
  return Object.is(result, -0) ? 0 : result;
}

/** Sum of amounts, rounded to cents. */
/** An amount of dollars as integer cents. */
export const toCents = (amount: number): number => Math.round(amount * 100);

export function sumMoney(amounts: Iterable<number>): number {
  let total = 0;
  for (const amount of amounts) total += amount;
  return roundHalfEven(total, 2);
}
