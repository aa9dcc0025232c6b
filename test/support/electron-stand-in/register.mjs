// `node --import ./register.mjs app.js`: the app's `import … from 'electron'` gets the stand-in.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
