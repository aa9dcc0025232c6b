// Which URLs count as our own page: the built renderer folder (file://) or, under
// `electron-vite dev`, the dev server's origin. Everything else is foreign.

export interface UrlPolicy {
  isOwnUrl(url: string): boolean;
  /** Requests the renderer may make: own files, the dev server (and its hot-reload socket). */
  isAllowedRequest(url: string): boolean;
}

export function createUrlPolicy(rendererDirUrl: string, devServerUrl?: string): UrlPolicy {
  const fileRoot = rendererDirUrl.endsWith('/') ? rendererDirUrl : `${rendererDirUrl}/`;
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : null;
  const isOwnUrl = (url: string): boolean => {
    if (url.startsWith('file://')) {
      // Normalise ../ so a path cannot climb out of the renderer folder.
      try {
        const parsed = new URL(url);
        return `file://${parsed.pathname}`.startsWith(fileRoot);
      } catch {
        return false;
      }
    }
    if (!devOrigin) return false;
    try {
      return new URL(url).origin === devOrigin;
    } catch {
      return false;
    }
  };
  return {
    isOwnUrl,
    isAllowedRequest(url) {
      if (url.startsWith('devtools://')) return true;
      return isOwnUrl(url) || isOwnUrl(url.replace(/^ws(s?):/, 'http$1:'));
    },
  };
}
