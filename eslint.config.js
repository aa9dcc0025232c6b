// The house rules of docs/ARCHITECTURE.md as checks. Fix the code, not the rule.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Identifiers electron-vite's ESM shim declares at the top of the main bundle. */
const BUNDLER_GLOBALS = '/^(require|__dirname|__filename)$/';
const bundlerCollision = (what) => ({
  message: `A module-level ${what} named require, __dirname or __filename collides with the one the bundler injects: the built app would not parse.`,
});

const RENDERER_ZONES = [
  { target: './src/renderer', from: './src/main', message: 'The renderer talks to main only through window.suikouji.' },
  { target: './src/renderer', from: './src/gateway', message: 'The renderer never imports the gateway.' },
];
// The LLM core (prompts, the transaction LLM, the chat provider, the ASR token broker, errors)
// is shared by the desktop app's direct mode and the gateway, and owned by neither: neither
// imports the other, and the core imports neither.
const LLM_CORE_ZONES = [
  { target: './src/main', from: './src/gateway', message: 'The app shares the LLM core (src/llm) with the gateway, never the gateway itself.' },
  { target: './src/gateway', from: './src/main', message: 'The gateway shares the LLM core (src/llm) with the app, never the app itself.' },
  {
    target: './src/llm',
    from: ['./src/main', './src/gateway', './src/renderer', './src/preload'],
    message: 'The LLM core depends only on src/shared.',
  },
];

export default tseslint.config(
  {
    ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'coverage/', 'test-results/', 'playwright-report/', '.cache/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x parses only .js dependencies and sees no cycle among .ts files.
      // (.svelte components are linted, but not followed: their dependency graph is the bundler's.)
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // import-x 4.6 and the TypeScript resolver 3.7 are pinned: later versions resolve through
      // native addons (unrs/rspack) whose other-platform builds npm ci cannot fetch here.
      'import-x/resolver': { typescript: { project: ['tsconfig.node.json', 'tsconfig.web.json', 'tsconfig.e2e.json'] } },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // Only the shell and the preload may import Electron: everything else runs (and is
      // tested) in plain Node, where there is no Electron binary.
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src/main/app and src/preload import electron.' }] }],
    },
  },
  {
    files: ['src/main/app/**', 'src/preload/**', 'test/support/electron-stand-in/**', 'e2e/electron.spec.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/main/**/*.ts', 'src/preload/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Program > VariableDeclaration > VariableDeclarator[id.name=${BUNDLER_GLOBALS}]`, ...bundlerCollision('variable') },
        {
          selector: `Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator[id.name=${BUNDLER_GLOBALS}]`,
          ...bundlerCollision('variable'),
        },
        { selector: `Program > FunctionDeclaration[id.name=${BUNDLER_GLOBALS}]`, ...bundlerCollision('function') },
        { selector: `Program > ImportDeclaration > ImportSpecifier[local.name=${BUNDLER_GLOBALS}]`, ...bundlerCollision('import') },
      ],
    },
  },
  {
    // The renderer is untrusted page code: it reaches the main process only through the
    // preload's API object, never by importing main-process or gateway modules.
    files: ['src/renderer/**', 'test/support/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // By specifier too: a file the resolver cannot place would slip past the path zones.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only src/main/app and src/preload import electron.' }],
          patterns: [
            { group: ['@core', '@core/*', '**/main/**', '**/gateway/**'], message: 'The renderer talks to main only through window.suikouji.' },
          ],
        },
      ],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...RENDERER_ZONES,
            { target: './test/support/renderer', from: './src/main', message: 'Renderer test fakes stand in for main; they never import it.' },
            { target: './test/support/renderer', from: './src/gateway', message: 'The renderer never imports the gateway.' },
          ],
        },
      ],
    },
  },
  {
    // Production code never depends on test helpers.
    files: ['src/**/*.ts', 'src/**/*.svelte'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src', from: './test', message: 'Production code never imports test helpers.' },
            { target: './src', from: './e2e', message: 'Production code never imports test helpers.' },
            // One flat config object's rule replaces another's for the same file: the renderer's
            // zones are repeated here so they hold for its production files too.
            ...RENDERER_ZONES,
            ...LLM_CORE_ZONES,
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'], svelteConfig: (await import('./svelte.config.js')).default },
    },
  },
  {
    files: ['e2e/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    // Playwright reads a fixture's dependencies from its first parameter, which must be a
    // destructuring pattern even when it takes none: `async ({}, use) => …`.
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  prettier,
  ...svelte.configs.prettier,
);
