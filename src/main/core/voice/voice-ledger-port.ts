// The voice session's ledger: the book-routed port (a card belongs to the book it was spoken
// in) plus the account balances the card's overdraft note reads, from that same book.
import type { AccountBalances } from '@shared/ipc/ledger';
import { BookRoutedPort } from '../books/book-port';
import { accountFor } from './overdraft';
import type { AccountBalanceInfo, LedgerPort } from './ports';

export interface VoiceBooks {
  currentId(): string;
  port(id: string): LedgerPort;
  /** Every account of a book with its balance now. */
  balances(id: string): AccountBalances;
}

export class VoiceLedgerPort extends BookRoutedPort {
  constructor(private readonly voiceBooks: VoiceBooks) {
    super(voiceBooks);
  }

  /** The account a draft's name lands in, in the book the card belongs to. */
  accountBalance(spoken: string | null): AccountBalanceInfo | undefined {
    return accountFor(spoken, this.voiceBooks.balances(this.bookId));
  }
}
