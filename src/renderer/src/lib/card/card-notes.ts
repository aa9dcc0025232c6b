import type { ParseResult } from '@shared/domain';
import { formatFenAmount } from '../format';

/** What the card says about a draft's links (退的是哪一笔, 报销了哪些待报销), or null: none. */
export function linkText(result: Pick<ParseResult, 'cardNote' | 'linkNote'>): string | null {
  return result.cardNote ?? result.linkNote ?? null;
}

/** 「现金余额将变为 −¥40.00」: said, never blocking, when a draft overdraws a cash account. */
export function overdraftText(result: Pick<ParseResult, 'overdraft'>): string | null {
  const o = result.overdraft;
  return o ? `${o.account}余额将变为 ${formatFenAmount(o.balanceFen)}` : null;
}
