// A transfer to a person read off a picture may be a gift or a loan: the card offers to keep
// it as money lent (a debt the person owes) and back; which drafts may take the change is
// the core's rule (lendable), shown here.
import { lendable, type ParseResult } from '@shared/domain';

export interface LendToggle {
  /** What the button asks the core for: `editItem` with `fields.lend`. */
  lend: boolean;
  label: string;
  /** Names the person and, on a list, the item, so two such buttons are told apart. */
  ariaLabel: string;
}

/** The card's switch for this draft, or null when it is not a transfer to a person nor a loan. */
export function lendToggle(result: Pick<ParseResult, 'type' | 'flow' | 'counterparty'>, number?: number): LendToggle | null {
  if (!lendable(result)) return null;
  const who = result.counterparty!;
  const which = number === undefined ? '这笔' : `第${number}笔`;
  return result.flow === 'lend'
    ? { lend: false, label: '记为转账', ariaLabel: `把借给${who}的${which}记为转账` }
    : { lend: true, label: '记为借出', ariaLabel: `把转给${who}的${which}记为借出` };
}
