import type { RECURRING_COMMANDS } from '@shared/ipc/recurring.names';
import type { ParsedInput } from '@shared/ipc/index';
import { yuanToFen } from '@shared/money';
import { LedgerHistory, type Ledger, type RecurringRuleInput, type RecurringRulePatch } from '../ledger/index';
import { guard } from './ledger-handlers';
import { CommandError, type AreaHandlers } from './types';

type RecurringCommand = (typeof RECURRING_COMMANDS)[number];

/** What the 周期记账 commands need: the current book's ledger and its history (as the ledger area's). */
export interface RecurringHandlerDeps {
  ledger: Ledger;
  history?: LedgerHistory;
}

type RuleFields = Partial<Omit<ParsedInput<'addRecurring'>, 'mode'>> & { mode?: ParsedInput<'addRecurring'>['mode'] };

/** The form's fields in the ledger's words: fen, and the rule's own names for when it runs. */
function ruleInput(fields: RuleFields): RecurringRulePatch {
  const { amountYuan, recurrence, startDate, endDate, maxCount, ...rest } = fields;
  return {
    ...rest,
    ...(amountYuan !== undefined ? { amountFen: yuanToFen(amountYuan) } : {}),
    ...(recurrence !== undefined ? { rule: recurrence } : {}),
    ...(startDate !== undefined ? { start: startDate } : {}),
    ...(endDate !== undefined ? { end: endDate } : {}),
    ...(maxCount !== undefined ? { count: maxCount } : {}),
  };
}

export function createRecurringHandlers(deps: RecurringHandlerDeps): AreaHandlers<RecurringCommand> {
  const { ledger } = deps;
  const history = deps.history ?? new LedgerHistory(ledger);
  /**
   * A change to the rules, then a catch-up: a rule made (or resumed, or moved) onto a day
   * already due makes that occurrence now, not at the next hourly check. The windows hear
   * of the rule list either way.
   */
  const changedRule = <T extends { id: number }>(fn: () => T) => {
    const rule = guard(fn);
    history.catchUpRecurring();
    history.notify('recurring');
    return ledger.recurringRule(rule.id);
  };
  const pending = (recurrenceKey: string) => {
    const offer = ledger.recurringOffers().find((d) => d.recurrenceKey === recurrenceKey);
    if (!offer) throw new CommandError('not_found', '这笔周期记账已经记上或忽略过了');
    return offer;
  };
  return {
    listRecurring: () => ledger.recurringRules(),
    addRecurring: (input) => changedRule(() => ledger.addRecurringRule(ruleInput(input) as RecurringRuleInput)),
    updateRecurring: ({ id, patch }) => changedRule(() => ledger.updateRecurringRule(id, ruleInput(patch))),
    setRecurringPaused: ({ id, paused }) => changedRule(() => ledger.setRecurringPaused(id, paused)),
    deleteRecurring: ({ id }) => {
      guard(() => ledger.deleteRecurringRule(id));
      history.notify('recurring');
      return { deleted: true as const };
    },
    recurringDrafts: () => ledger.recurringOffers(),
    confirmRecurringDraft: ({ recurrenceKey, amountYuan, ...edits }) => {
      const offer = pending(recurrenceKey);
      return guard(() =>
        history.confirmRecurringDraft({
          ...offer,
          ...edits,
          ...(amountYuan !== undefined ? { amountFen: yuanToFen(amountYuan) } : {}),
        }),
      );
    },
    dismissRecurringDraft: ({ recurrenceKey }) => {
      pending(recurrenceKey);
      guard(() => history.dismissRecurringDraft(recurrenceKey));
      return { dismissed: true as const };
    },
  };
}
