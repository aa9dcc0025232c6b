// Menu templates as plain data (a subset of Electron's MenuItemConstructorOptions), so
// they are unit-tested without Electron; the shell passes them to Menu.buildFromTemplate.

export interface MenuItemSpec {
  label?: string;
  type?: 'normal' | 'separator' | 'submenu' | 'radio';
  checked?: boolean;
  role?: string;
  accelerator?: string;
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemSpec[];
}

export interface TrayActions {
  /** The main window's 记一笔 form. */
  newEntry(): void;
  quickEntry(): void;
  /** 打开图片…: a picture's drafts on the card (shown only where pictures can be read). */
  openPicture?(): void;
  toggleVoice(): void;
  showMain(): void;
  openSettings(): void;
  quit(): void;
  /** The 账本 submenu: make this book the current one. */
  switchBook(id: string): void;
}

export interface TrayStatus {
  /** True while the session listens or recognizes. */
  voiceActive: boolean;
  /** The voice session could not be created (e.g. no ledger): voice items are disabled. */
  voiceAvailable: boolean;
  /** The books the user can switch to (archived ones left out) and the current one. */
  books?: { current: string; open: { id: string; name: string }[] };
  /** Pictures can be read on this computer (ocrSupport): 打开图片… is offered. */
  pictures?: boolean;
}

export function trayMenuTemplate(status: TrayStatus, actions: TrayActions): MenuItemSpec[] {
  return [
    { label: '记一笔…', click: actions.newEntry },
    { label: '快速记账…', click: actions.quickEntry },
    ...(status.pictures && actions.openPicture ? [{ label: '打开图片…', click: actions.openPicture } satisfies MenuItemSpec] : []),
    { label: status.voiceActive ? '停止语音' : '开始语音', enabled: status.voiceAvailable, click: actions.toggleVoice },
    { type: 'separator' },
    // One book needs no menu; with several, the tray switches like the sidebar.
    ...(status.books && status.books.open.length > 1
      ? [
          {
            label: `账本：${status.books.open.find((b) => b.id === status.books!.current)?.name ?? ''}`,
            type: 'submenu',
            submenu: status.books.open.map((b) => ({
              label: b.name,
              type: 'radio',
              checked: b.id === status.books!.current,
              click: () => actions.switchBook(b.id),
            })),
          } satisfies MenuItemSpec,
          { type: 'separator' } satisfies MenuItemSpec,
        ]
      : []),
    { label: '打开主窗口', click: actions.showMain },
    { label: '设置', click: actions.openSettings },
    { type: 'separator' },
    { label: '退出', click: actions.quit },
  ];
}

export interface AppMenuActions {
  newEntry(): void;
  quickEntry(): void;
  openSettings(): void;
  quit(): void;
}

/** The standard menus with their usual shortcuts (copy/paste must work in text fields). */
export function appMenuTemplate(platform: NodeJS.Platform, appName: string, actions: AppMenuActions): MenuItemSpec[] {
  const mac = platform === 'darwin';
  const file: MenuItemSpec = {
    label: '文件',
    type: 'submenu',
    submenu: [
      { label: '记一笔…', accelerator: 'CmdOrCtrl+N', click: actions.newEntry },
      { label: '快速记账…', accelerator: 'CmdOrCtrl+Shift+N', click: actions.quickEntry },
      ...(mac ? [] : [{ label: '设置', accelerator: 'CmdOrCtrl+,', click: actions.openSettings } satisfies MenuItemSpec]),
      { type: 'separator' },
      mac ? { role: 'close', label: '关闭窗口' } : { label: '退出', accelerator: 'Ctrl+Q', click: actions.quit },
    ],
  };
  const edit: MenuItemSpec = {
    label: '编辑',
    type: 'submenu',
    submenu: [
      { role: 'undo', label: '撤销' },
      { role: 'redo', label: '重做' },
      { type: 'separator' },
      { role: 'cut', label: '剪切' },
      { role: 'copy', label: '复制' },
      { role: 'paste', label: '粘贴' },
      { role: 'selectAll', label: '全选' },
    ],
  };
  const view: MenuItemSpec = {
    label: '视图',
    type: 'submenu',
    submenu: [
      { role: 'reload', label: '重新载入' },
      { type: 'separator' },
      { role: 'resetZoom', label: '实际大小' },
      { role: 'zoomIn', label: '放大' },
      { role: 'zoomOut', label: '缩小' },
      { type: 'separator' },
      { role: 'togglefullscreen', label: '全屏' },
    ],
  };
  const window: MenuItemSpec = {
    label: '窗口',
    type: 'submenu',
    submenu: [
      { role: 'minimize', label: '最小化' },
      ...(mac
        ? [
            { role: 'zoom', label: '缩放' },
            { role: 'front', label: '全部置于顶层' },
          ]
        : [{ role: 'close', label: '关闭' }]),
    ],
  };
  const appMenu: MenuItemSpec = {
    label: appName,
    type: 'submenu',
    submenu: [
      { role: 'about', label: `关于${appName}` },
      { type: 'separator' },
      { label: '设置…', accelerator: 'Cmd+,', click: actions.openSettings },
      { type: 'separator' },
      { role: 'hide', label: `隐藏${appName}` },
      { role: 'hideOthers', label: '隐藏其他' },
      { role: 'unhide', label: '全部显示' },
      { type: 'separator' },
      { label: `退出${appName}`, accelerator: 'Cmd+Q', click: actions.quit },
    ],
  };
  return mac ? [appMenu, file, edit, view, window] : [file, edit, view, window];
}
