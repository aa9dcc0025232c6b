// The pictures of the cards on screen, held in memory until their drafts are saved (then the
// ledger keeps them with the entries) or the card goes (then nothing is kept). Shared by the
// sessions one after another: a session that ends by itself leaves its card for the next one,
// and the picture stays with it. Not written anywhere: after a restart a kept card's drafts
// save without their picture.
import type { KeptPicture } from '../ledger/attachments';

/** A few cards' worth at most: a picture is up to MAX_PICTURE_BYTES. */
const HELD = 3;

export class PendingPictures {
  private readonly held = new Map<string, KeptPicture>();

  hold(picture: KeptPicture): void {
    this.held.delete(picture.id);
    this.held.set(picture.id, picture);
    while (this.held.size > HELD) this.held.delete(this.held.keys().next().value!);
  }

  /** The held pictures of these ids (ids of pictures no longer held are left out). */
  pick(ids: Iterable<string | undefined>): KeptPicture[] {
    const found = new Map<string, KeptPicture>();
    for (const id of ids) {
      const picture = id === undefined ? undefined : this.held.get(id);
      if (picture) found.set(picture.id, picture);
    }
    return [...found.values()];
  }

  release(ids: Iterable<string | undefined>): void {
    for (const id of ids) if (id !== undefined) this.held.delete(id);
  }

  get size(): number {
    return this.held.size;
  }
}
