import type { ParseResult } from '@shared/domain';
import type { KeptPicture } from '../ledger/attachments';

/** A picture's drafts for the card, as the picture handlers made them (see ipc/picture-handlers.ts). */
export interface PictureCard {
  /** Each carries `picture: picture.id`. */
  results: ParseResult[];
  /** The reading's notes, Chinese, shown on the card. */
  notes: string[];
  /** The picture's file name, shown on the card. */
  name: string;
  picture: KeptPicture;
}

/**
 * 'shown': the drafts are on the card. 'busy': a card with drafts was open, nothing changed.
 * 'empty': nothing in the drafts is a payment. 'gone': the session ended meanwhile.
 */
export type PictureOutcome = 'shown' | 'busy' | 'empty' | 'gone';
