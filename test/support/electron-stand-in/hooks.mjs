// Module resolve hook: `electron` → the stand-in. Registered by ./register.mjs.
const standIn = new URL('./electron.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: standIn, shortCircuit: true };
  return next(specifier, context);
}
