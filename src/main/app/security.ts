import { app, session, type WebContents } from 'electron';

/**
 * Our renderer is local files only: no navigation away, no new windows, no webviews, no
 * request to anything but our own files, and no permission other than the microphone
 * (audio only, for our own pages).
 */
export function hardenApp(isOwnUrl: (url: string) => boolean, isAllowedRequest: (url: string) => boolean): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isOwnUrl(url)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isOwnUrl(url)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const audioOnly = permission === 'media' && (details as { mediaTypes?: string[] }).mediaTypes?.every((t) => t === 'audio') !== false;
    callback(audioOnly && isOwnUrl(details.requestingUrl));
  });
  ses.setPermissionCheckHandler((contents, permission) => permission === 'media' && contents !== null && isOwnUrl(contents.getURL()));
  // No remote content: anything that is not our own page or its assets is cancelled.
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }));
}
