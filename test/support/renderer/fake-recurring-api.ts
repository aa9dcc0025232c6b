import type { CommandInput, CommandName, CommandOutputs } from '@shared/ipc/index';
import type { RECURRING_COMMANDS } from '@shared/ipc/recurring.names';
import { yuanToFen } from '@shared/money';
import { completeRule, nextOccurrence, recurrenceLabel, type RecurringDraft, type RecurringRuleInfo } from '@shared/recurrence';
import { addDays } from '@shared/time';
import type { TransactionRow } from '@shared/domain';

type RecurringCommand = (typeof RECURRING_COMMANDS)[number];
type Handlers = { [K in RecurringCommand & CommandName]: (input: CommandInput<K>) => CommandOutputs[K] };

/** What the recurring fake needs of the ledger fake: rows, and the windows' change event. */
interface Host {
  addRow(partial: Partial<TransactionRow> & Pick<TransactionRow, 'amountFen' | 'description'>): TransactionRow;
  changed(reason: 'save' | 'edit' | 'delete' | 'recurring'): void;
}

/** The fake's rules and waiting offers: a test sets them up and reads them back. */
export interface FakeRecurring {
  rules: RecurringRuleInfo[];
  offers: RecurringDraft[];
}

const states = new WeakMap<object, FakeRecurring>();

/** The recurring state of one FakeLedgerApi. */
export function recurringOf(host: object): FakeRecurring {
  let state = states.get(host);
  if (!state) states.set(host, (state = { rules: [], offers: [] }));
  return state;
}

/** A rule as main answers it, from the form's fields; the next date computed from its start, as a new rule's is. */
export function fakeRule(id: number, input: CommandInput<'addRecurring'>): RecurringRuleInfo {
  const rule = completeRule(input.recurrence, input.startDate);
  const schedule = { rule, start: input.startDate, end: input.endDate ?? null, count: input.maxCount ?? null };
  return {
    id,
    key: `r${id.toString(16).padStart(16, '0')}`,
    type: input.type,
    amountFen: yuanToFen(input.amountYuan),
    category: input.category ?? '其他',
    account: input.account ?? '钱包',
    ...(input.type === 'TRANSFER' ? { toAccount: input.toAccount ?? null } : {}),
    description: input.description ?? '',
    ...schedule,
    mode: input.mode ?? 'save',
    paused: false,
    nextDate: nextOccurrence(schedule, addDays(input.startDate, -1)),
    createdCount: 0,
    label: recurrenceLabel(rule),
  };
}

/**
 * The 周期记账 commands over plain arrays, for the page's tests: the ledger's own rules
 * (catch-up, rescheduling from today) are main's and tested there; here a rule keeps the
 * dates of its start.
 */
export function recurringHandlers(host: Host): Handlers {
  const state = recurringOf(host);
  let nextId = 1;
  const find = (id: number) => {
    const rule = state.rules.find((r) => r.id === id);
    if (!rule) throw new Error(`FakeRecurring: no rule ${id}`);
    return rule;
  };
  const takeOffer = (key: string) => {
    const offer = state.offers.find((d) => d.recurrenceKey === key);
    if (!offer) throw new Error(`FakeRecurring: no offer ${key}`);
    state.offers = state.offers.filter((d) => d !== offer);
    return offer;
  };
  return {
    listRecurring: () => [...state.rules].sort((a, b) => Number(a.paused) - Number(b.paused) || a.id - b.id),
    addRecurring: (input) => {
      const rule = fakeRule(Math.max(nextId++, ...state.rules.map((r) => r.id + 1)), input);
      state.rules.push(rule);
      host.changed('recurring');
      return rule;
    },
    updateRecurring: ({ id, patch }) => {
      const old = find(id);
      const merged = fakeRule(id, {
        type: patch.type ?? old.type,
        amountYuan: patch.amountYuan ?? old.amountFen / 100,
        category: patch.category ?? old.category,
        account: patch.account ?? old.account,
        toAccount: patch.toAccount !== undefined ? patch.toAccount : (old.toAccount ?? null),
        description: patch.description ?? old.description,
        recurrence: patch.recurrence ?? old.rule,
        startDate: patch.startDate ?? old.start,
        endDate: patch.endDate !== undefined ? patch.endDate : (old.end ?? null),
        maxCount: patch.maxCount !== undefined ? patch.maxCount : (old.count ?? null),
        mode: patch.mode ?? old.mode,
      });
      const rule = { ...merged, key: old.key, paused: old.paused, createdCount: old.createdCount };
      state.rules = state.rules.map((r) => (r.id === id ? rule : r));
      host.changed('recurring');
      return rule;
    },
    setRecurringPaused: ({ id, paused }) => {
      const rule = { ...find(id), paused };
      state.rules = state.rules.map((r) => (r.id === id ? rule : r));
      host.changed('recurring');
      return rule;
    },
    deleteRecurring: ({ id }) => {
      find(id);
      state.rules = state.rules.filter((r) => r.id !== id);
      host.changed('recurring');
      return { deleted: true as const };
    },
    recurringDrafts: () => state.offers,
    confirmRecurringDraft: ({ recurrenceKey, amountYuan, ...edits }) => {
      const offer = { ...takeOffer(recurrenceKey), ...edits, ...(amountYuan !== undefined ? { amountFen: yuanToFen(amountYuan) } : {}) };
      const row = host.addRow({
        type: offer.type,
        amountFen: offer.amountFen,
        category: offer.category,
        account: offer.account,
        description: offer.description,
        date: offer.date,
        source: 'recurring',
      });
      host.changed('save');
      return row;
    },
    dismissRecurringDraft: ({ recurrenceKey }) => {
      takeOffer(recurrenceKey);
      host.changed('recurring');
      return { dismissed: true as const };
    },
  };
}
