/** 账本 commands (sidebar, tray and 设置 → 账本). */
export const BOOK_COMMANDS = ['listBooks', 'createBook', 'renameBook', 'archiveBook', 'switchBook'] as const;
