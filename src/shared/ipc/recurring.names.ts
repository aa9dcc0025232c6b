/** 周期记账 commands (the rules page and the offers of draft-mode rules). */
export const RECURRING_COMMANDS = [
  'listRecurring',
  'addRecurring',
  'updateRecurring',
  'setRecurringPaused',
  'deleteRecurring',
  'recurringDrafts',
  'confirmRecurringDraft',
  'dismissRecurringDraft',
] as const;
