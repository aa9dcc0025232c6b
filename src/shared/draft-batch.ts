import {
  MAX_BATCH_ITEMS,
  type BatchItem,
  type DraftBatchDto,
  type DraftStatus,
  type DraftTransaction,
  type ParseResult,
  type UpdatedFields,
} from './domain';

/** The batch-level parts of a card (see DraftBatchDto). */
export type BatchAbout = Pick<DraftBatchDto, 'notes' | 'picture'>;

export interface DraftCounts {
  total: number;
  pending: number;
  confirmed: number;
  cancelled: number;
}

/** The pending items renumbered 0..k-1 for a correction request, and the way back. */
export interface PendingView {
  items: BatchItem[];
  /** renumbered index → original DraftTransaction.index */
  toOriginal: number[];
}

/**
 * The drafts of one CONFIRMING round (spec: voice-batch-transaction, DraftBatch).
 * Immutable: every operation returns a new instance; an unknown index returns `this`
 * unchanged rather than throwing, because indexes come from speech and the LLM.
 */
export class DraftBatch {
  readonly items: readonly DraftTransaction[];
  readonly createdAt: string;
  /** What the card says of the drafts as a whole, and the picture they were read off: kept through every change. */
  readonly about: BatchAbout;

  private constructor(items: readonly DraftTransaction[], createdAt: string, about: BatchAbout = {}) {
    this.items = Object.freeze(items.map((item) => Object.freeze({ ...item, result: Object.freeze({ ...item.result }) })));
    this.createdAt = createdAt;
    this.about = about;
  }

  /** At most MAX_BATCH_ITEMS results are kept; callers report truncation themselves. */
  static fromResults(results: readonly ParseResult[], createdAt: string = new Date().toISOString(), about: BatchAbout = {}): DraftBatch {
    const kept = results.slice(0, MAX_BATCH_ITEMS);
    return new DraftBatch(
      kept.map((result, index) => ({ index, result, status: 'pending' as const })),
      createdAt,
      about,
    );
  }

  static fromDto(dto: DraftBatchDto): DraftBatch {
    return new DraftBatch(dto.items, dto.createdAt, {
      ...(dto.notes ? { notes: dto.notes } : {}),
      ...(dto.picture ? { picture: dto.picture } : {}),
    });
  }

  toDto(): DraftBatchDto {
    return {
      items: this.items.map((item) => ({ index: item.index, status: item.status, result: { ...item.result } })),
      createdAt: this.createdAt,
      ...(this.about.notes?.length ? { notes: [...this.about.notes] } : {}),
      ...(this.about.picture ? { picture: { ...this.about.picture } } : {}),
    };
  }

  get size(): number {
    return this.items.length;
  }

  get pendingItems(): DraftTransaction[] {
    return this.items.filter((item) => item.status === 'pending');
  }

  get confirmedItems(): DraftTransaction[] {
    return this.items.filter((item) => item.status === 'confirmed');
  }

  get pendingCount(): number {
    return this.pendingItems.length;
  }

  get allResolved(): boolean {
    return this.items.every((item) => item.status !== 'pending');
  }

  /** Pending items that have no amount yet: they cannot be confirmed until one is said or typed. */
  get missingAmountItems(): DraftTransaction[] {
    return this.pendingItems.filter((item) => item.result.amount === null);
  }

  get isFull(): boolean {
    return this.items.length >= MAX_BATCH_ITEMS;
  }

  counts(): DraftCounts {
    const counts: DraftCounts = { total: this.items.length, pending: 0, confirmed: 0, cancelled: 0 };
    for (const item of this.items) counts[item.status] += 1;
    return counts;
  }

  item(index: number): DraftTransaction | undefined {
    return this.items.find((item) => item.index === index);
  }

  /** Applies corrected fields to one item; amount null is not a correction and is ignored. */
  updateItem(index: number, fields: UpdatedFields): DraftBatch {
    const target = this.item(index);
    if (!target) return this;
    const next: ParseResult = { ...target.result };
    if (typeof fields.amount === 'number' && Number.isFinite(fields.amount)) next.amount = fields.amount;
    if (fields.type !== undefined) next.type = fields.type;
    if (fields.category !== undefined) next.category = fields.category;
    if (fields.description !== undefined) next.description = fields.description;
    if (fields.date !== undefined) next.date = fields.date;
    if (fields.account !== undefined) next.account = fields.account;
    return this.replace(index, { ...target, result: next });
  }

  /** The item with `result` in place of its own (the card relinked a refund). */
  withResult(index: number, result: ParseResult): DraftBatch {
    const target = this.item(index);
    return target ? this.replace(index, { ...target, result }) : this;
  }

  /** An item without an amount stays pending: nothing may be saved without one. */
  confirmItem(index: number): DraftBatch {
    if (this.item(index)?.result.amount === null) return this;
    return this.setStatus(index, 'confirmed');
  }

  cancelItem(index: number): DraftBatch {
    return this.setStatus(index, 'cancelled');
  }

  /** Every pending item with an amount becomes confirmed; cancelled items stay cancelled. */
  confirmAll(): DraftBatch {
    return this.mapPending('confirmed');
  }

  /** Every pending item becomes cancelled; confirmed items stay confirmed. */
  cancelAll(): DraftBatch {
    return this.mapPending('cancelled');
  }

  /** Appends a pending item with index max+1; returns null when the batch is full. */
  append(result: ParseResult): DraftBatch | null {
    if (this.isFull) return null;
    const nextIndex = this.items.reduce((max, item) => Math.max(max, item.index), -1) + 1;
    return new DraftBatch([...this.items, { index: nextIndex, result, status: 'pending' }], this.createdAt, this.about);
  }

  /** The pending items renumbered from 0, as the correction API expects them. */
  pendingView(): PendingView {
    const pending = this.pendingItems;
    return {
      items: pending.map((item, renumbered) => ({
        index: renumbered,
        amount: item.result.amount,
        category: item.result.category,
        type: item.result.type,
        description: item.result.description,
        date: item.result.date,
      })),
      toOriginal: pending.map((item) => item.index),
    };
  }

  /** 1-based display position of an item (its place in `items`), or 0 when absent. */
  displayNumber(index: number): number {
    return this.items.findIndex((item) => item.index === index) + 1;
  }

  private setStatus(index: number, status: DraftStatus): DraftBatch {
    const target = this.item(index);
    if (!target || target.status === status) return this;
    return this.replace(index, { ...target, status });
  }

  private mapPending(status: DraftStatus): DraftBatch {
    const changes = (item: DraftTransaction): boolean => item.status === 'pending' && (status !== 'confirmed' || item.result.amount !== null);
    if (!this.items.some(changes)) return this;
    return new DraftBatch(
      this.items.map((item) => (changes(item) ? { ...item, status } : item)),
      this.createdAt,
      this.about,
    );
  }

  private replace(index: number, next: DraftTransaction): DraftBatch {
    return new DraftBatch(
      this.items.map((item) => (item.index === index ? next : item)),
      this.createdAt,
      this.about,
    );
  }
}
