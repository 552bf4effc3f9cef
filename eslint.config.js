// @ts-check
import tseslint from 'typescript-eslint';

/** Modules the isolated URL window's content must never be touched through. */
const isolatedWindowBans = [
  'executeJavaScript',
  'executeJavaScriptInIsolatedWorld',
  'capturePage',
  'debugger',
  'cookies',
  'webRequest',
  'getTitle',
].map((property) => ({
  property,
  message: 'The isolated URL window is never read; see docs on URL mode.',
}));

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      curly: ['error', 'all'],
      eqeqeq: ['error', 'smart'],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': ['error', ...isolatedWindowBans],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No .only in tests.' },
        {
          selector: "MemberExpression[property.name='dangerouslySetInnerHTML']",
          message: 'Agent text is never HTML.',
        },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Agent text is never HTML.',
        },
      ],
    },
  },
  {
    files: ['renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', 'electron', 'node:*', 'ws'],
              message: 'The renderer only talks through window.airlock.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/renderer/**'], message: 'main never imports the renderer.' }] },
      ],
    },
  },
  {
    files: ['main/core/**', 'main/shared/**', 'main/web/**', 'main/cli/**', 'main/demo-agent/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'electron',
              message: 'The core runs in plain Node; only main/electron imports electron.',
            },
          ],
          patterns: [
            {
              group: ['**/renderer/**', '**/electron/**'],
              message: 'The core is host-independent.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['preload/contract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|\\./form-model\\.js$)',
              message: 'The contract imports only zod and the pure form model beside it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Raw IPC only in the typed wrappers.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['main/electron/ipc.ts', 'preload/**', 'test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='only']", message: 'No .only in tests.' },
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Agent text is never HTML.',
        },
        {
          selector: "MemberExpression[object.name='ipcMain']",
          message: 'Use the typed IPC wrapper in main/electron/ipc.ts.',
        },
        {
          selector: "MemberExpression[object.name='ipcRenderer']",
          message: 'Only the preload touches ipcRenderer.',
        },
      ],
    },
  },
);
