// The pictures of an export's rows (截图记账): a folder beside the export file, named after it,
// holding each picture once under its file name in the book, with its recognised text beside it
// as <file name>.txt. The folder is filled under a temporary name and put in place together
// with the file, so a failed export leaves neither half; an export with no picture makes none.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Ledger } from './ledger';

/** 随口记_20261128_101500.csv → 随口记_20261128_101500_附件, beside it. */
export function picturesFolder(path: string): string {
  return join(dirname(path), `${basename(path, extname(path))}_附件`);
}

export class ExportPictures {
  /** The book's picture folder; null when the book keeps none, and the export then looks for none. */
  private readonly source: string | null;
  /** The folder being filled (beside the target, so the rename stays on one file system); made at the first picture. */
  private temp: string | null = null;
  /** Every picture file met so far, and whether it is still in the book (a file gone is named nowhere). */
  private readonly met = new Map<string, boolean>();
  private waiting: { file: string; text: string }[] = [];
  private copied = 0;

  constructor(
    private readonly ledger: Ledger,
    /** Where the pictures go: picturesFolder(the export's path). */
    readonly folder: string,
  ) {
    // Most books have no picture: one look here spares every chunk its query.
    this.source = ledger.attachmentsDir !== null && ledger.attachmentFiles().length > 0 ? ledger.attachmentsDir : null;
  }

  /** Pictures taken into the folder. */
  get count(): number {
    return this.copied;
  }

  /**
   * The file name of each of these rows' pictures, by row id, for the 附件 column; the pictures
   * met for the first time wait for copy(). Call between the chunk's rows and the next turn of
   * the event loop: the ledger's export statement must be finished.
   */
  names(transactionIds: readonly string[]): Map<string, string> {
    const names = new Map<string, string>();
    if (this.source === null) return names;
    for (const [id, { file, text }] of this.ledger.attachmentsOf(transactionIds)) {
      let present = this.met.get(file);
      if (present === undefined) {
        present = existsSync(join(this.source, file));
        this.met.set(file, present);
        if (present) this.waiting.push({ file, text });
      }
      if (present) names.set(id, file);
    }
    return names;
  }

  /** Copies the pictures named since the last call into the temporary folder. */
  async copy(): Promise<void> {
    if (this.source === null || this.waiting.length === 0) return;
    if (this.temp === null) {
      const temp = join(dirname(this.folder), `.${basename(this.folder)}.${randomBytes(4).toString('hex')}.tmp`);
      await mkdir(temp);
      this.temp = temp;
    }
    const waiting = this.waiting;
    this.waiting = [];
    for (const { file, text } of waiting) {
      await copyFile(join(this.source, file), join(this.temp, file));
      await writeFile(join(this.temp, `${file}.txt`), text);
      this.copied++;
    }
  }

  /**
   * Puts the folder in place, then the export file by `placeFile`. A folder of an earlier export
   * by that name is replaced (a directory cannot be renamed onto a full one, so it is moved aside
   * first); if the file cannot be placed, the folder goes back to how it was.
   */
  async place(placeFile: () => Promise<void>): Promise<void> {
    const temp = this.temp;
    if (temp === null) return placeFile();
    const aside = existsSync(this.folder) ? join(dirname(this.folder), `.${basename(this.folder)}.${randomBytes(4).toString('hex')}.old`) : null;
    if (aside) await rename(this.folder, aside);
    try {
      await rename(temp, this.folder);
    } catch (err) {
      if (aside) await rename(aside, this.folder).catch(() => undefined);
      throw err;
    }
    try {
      await placeFile();
    } catch (err) {
      // Back under the temporary name, which discard() removes.
      await rename(this.folder, temp).catch(() => undefined);
      if (aside) await rename(aside, this.folder).catch(() => undefined);
      throw err;
    }
    this.temp = null;
    // The export is in place; an old folder that will not go is only clutter, not a failure.
    if (aside) await rm(aside, { recursive: true, force: true }).catch(() => undefined);
  }

  /** Removes the temporary folder of a failed export. */
  async discard(): Promise<void> {
    if (this.temp !== null) await rm(this.temp, { recursive: true, force: true });
    this.temp = null;
  }
}
