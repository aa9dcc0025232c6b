import { join, sep } from 'node:path';

export interface AppPaths {
  preload: string;
  rendererDir: string;
  /** Icons read by native code (tray, window icon), which cannot look inside an asar. */
  resourcesDir: string;
}

/**
 * Where the built main bundle finds its neighbours. `mainDir` is the folder of
 * out/main/index.js: in the project after `electron-vite build`, or inside app.asar in an
 * installed app. electron-builder unpacks resources/** next to the archive
 * (app.asar.unpacked); Electron's fs redirects reads there, but native code such as the
 * Linux tray's icon loader gets the path as is, so it must name the unpacked copy.
 */
export function appPaths(mainDir: string): AppPaths {
  const outDir = join(mainDir, '..');
  const resources = join(outDir, '..', 'resources');
  const asar = `${sep}app.asar${sep}`;
  return {
    preload: join(outDir, 'preload', 'index.cjs'),
    rendererDir: join(outDir, 'renderer'),
    resourcesDir: resources.includes(asar) ? resources.replace(asar, `${sep}app.asar.unpacked${sep}`) : resources,
  };
}
