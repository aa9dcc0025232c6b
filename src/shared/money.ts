// Money crosses from yuan (what people say, what the LLM returns) to integer fen (what the
// ledger stores) in exactly one place.

export const MAX_AMOUNT_YUAN = 100_000_000;

/** Converts yuan to integer fen, rounding half away from zero at the fen. */
export function yuanToFen(yuan: number): number {
  if (!Number.isFinite(yuan)) throw new RangeError(`amount is not a finite number: ${yuan}`);
  // toFixed first: 19.99 * 100 is 1998.9999999999998 in binary floating point.
  const scaled = Number((yuan * 100).toFixed(4));
  return Math.sign(scaled) * Math.round(Math.abs(scaled)) + 0;
}

export function fenToYuan(fen: number): number {
  return fen / 100;
}

/** Spoken/displayed form: integers without decimals, otherwise two decimals. */
export function formatYuan(yuan: number): string {
  return Number.isInteger(yuan) ? String(yuan) : yuan.toFixed(2);
}

export function formatFen(fen: number): string {
  return formatYuan(fenToYuan(fen));
}
