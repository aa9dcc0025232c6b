import type { TransactionType } from '@shared/domain';
import { PRESET_CATEGORIES } from '@shared/categories';
import type { AppEvent } from '@shared/events';
import type { SuikoujiApi } from '@shared/ipc/index';

export interface PickerCategory {
  name: string;
  type: TransactionType;
}

type CategoryApi = Partial<Pick<SuikoujiApi, 'listCategories'>> & Pick<SuikoujiApi, 'onEvent'>;

const PRESETS: PickerCategory[] = PRESET_CATEGORIES.filter((c) => !c.hidden).map(({ name, type }) => ({ name, type }));

/**
 * The categories the picker offers: the user's own list (custom ones, hidden ones left
 * out, in their order), kept fresh on ledger changes; the presets until it has loaded or
 * where the ledger cannot answer.
 */
export class CategoryChoices {
  items = $state<PickerCategory[]>(PRESETS);
  #api: CategoryApi;

  constructor(api: CategoryApi) {
    this.#api = api;
  }

  connect(): () => void {
    if (!this.#api.listCategories) return () => {};
    void this.#load();
    return this.#api.onEvent((event: AppEvent) => {
      if (event.channel === 'ledger') void this.#load();
    });
  }

  async #load(): Promise<void> {
    const result = await this.#api.listCategories?.({});
    if (!result?.ok) return;
    const visible = result.value.filter((c) => !c.hidden).sort((a, b) => a.sortOrder - b.sortOrder);
    if (visible.length) this.items = visible.map(({ name, type }) => ({ name, type }));
  }
}
