// Entry of the Electron main process. Everything Electron-specific lives in ./app; the
// core under ./core is plain Node and is what the tests exercise.
import './app/main';
