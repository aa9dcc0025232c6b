import { Menu, nativeImage, Tray } from 'electron';
import { trayMenuTemplate, type TrayActions, type TrayStatus } from './pure/menus';

export class AppTray {
  private readonly tray: Tray;
  private status: TrayStatus = { voiceActive: false, voiceAvailable: true };

  constructor(
    iconPath: string,
    private readonly actions: TrayActions,
  ) {
    const icon = nativeImage.createFromPath(iconPath);
    if (process.platform === 'darwin') icon.setTemplateImage(true);
    this.tray = new Tray(icon);
    this.tray.setToolTip('随口记');
    // Windows and Linux users expect a click on the tray icon to open the app.
    this.tray.on('click', () => actions.showMain());
    this.render();
  }

  update(status: Partial<TrayStatus>): void {
    const next = { ...this.status, ...status };
    if (
      next.voiceActive === this.status.voiceActive &&
      next.voiceAvailable === this.status.voiceAvailable &&
      next.books === this.status.books &&
      next.pictures === this.status.pictures
    )
      return;
    this.status = next;
    this.render();
  }

  destroy(): void {
    this.tray.destroy();
  }

  private render(): void {
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(this.status, this.actions) as Electron.MenuItemConstructorOptions[]));
  }
}
