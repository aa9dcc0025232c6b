/** 截图记账 commands: a picture's drafts on the card, and the picture kept with its entries. */
export const PICTURE_COMMANDS = ['pictureSupport', 'pictureRead', 'pictureOpen', 'attachmentGet'] as const;
