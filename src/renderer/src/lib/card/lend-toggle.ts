// A transfer to a person read off a picture may be a gift or a loan: the card offers to keep
// it as money lent (a debt the person owes) and back. The core decides the same way which
// drafts may take the change (voice/dialogue.ts lendable).
import type { ParseResult } from '@shared/domain';

export interface LendToggle {
  /** What the button asks the core for: `editItem` with `fields.lend`. */
  lend: boolean;
  label: string;
  /** Names the person and, on a list, the item, so two such buttons are told apart. */
  ariaLabel: string;
}

/** The card's switch for this draft, or null when it is not a transfer to a person nor a loan. */
export function lendToggle(result: Pick<ParseResult, 'type' | 'flow' | 'counterparty'>, number?: number): LendToggle | null {
  const who = result.counterparty;
  if (result.type !== 'TRANSFER' || !who) return null;
  const which = number === undefined ? '这笔' : `第${number}笔`;
  if (result.flow === undefined) return { lend: true, label: '记为借出', ariaLabel: `把转给${who}的${which}记为借出` };
  if (result.flow === 'lend') return { lend: false, label: '记为转账', ariaLabel: `把借给${who}的${which}记为转账` };
  return null;
}
