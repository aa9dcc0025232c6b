import { app, session, type WebContents } from 'electron';

/**
 * Our renderer is local files only: no navigation away, no new windows, and no
 * permission other than the microphone (which the main process owns anyway).
 */
export function hardenApp(isOwnUrl: (url: string) => boolean): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isOwnUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => {
    callback(permission === 'media');
  });
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => permission === 'media');
}
