// @ts-check
import tseslint from 'typescript-eslint';

/**
 * APIs through which the isolated URL window's content could be read; none is used anywhere
 * (see main/electron/url-window.ts).
 */
const isolatedWindowBans = [
  'executeJavaScript',
  'executeJavaScriptInIsolatedWorld',
  'capturePage',
  'debugger',
  'cookies',
  'webRequest',
  'getTitle',
  'savePage',
  'printToPDF',
  'netLog',
].map((property) => ({
  property,
  message: 'The isolated URL window is never read; see docs on URL mode.',
}));

/** Events that hand a page's content to a listener: listening to them is banned everywhere. */
const isolatedWindowEventBan = {
  selector:
    'CallExpression[callee.property.name=/^(on|once|addListener|prependListener|prependOnceListener)$/][arguments.0.value=/^(console-message|page-title-updated|page-favicon-updated)$/]',
  message: 'The isolated URL window is never read: no console, title or favicon listeners.',
};

/** Syntax banned everywhere (each `no-restricted-syntax` list below repeats these). */
const syntaxBans = [
  { selector: "CallExpression[callee.property.name='only']", message: 'No .only in tests.' },
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'Agent text is never HTML.',
  },
  isolatedWindowEventBan,
];

/** The preload scripts run only in Electron's preload: nothing else imports them. */
const PRELOAD_SCRIPTS = {
  regex: '(^|/)preload/(?!shared/)',
  message:
    'Shared code lives in preload/shared/; the preload scripts themselves belong to Electron.',
};

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '.stryker-tmp/**',
      'reports/**',
    ],
  },
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
        ...syntaxBans,
        {
          selector: "MemberExpression[property.name='dangerouslySetInnerHTML']",
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
            PRELOAD_SCRIPTS,
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
        {
          patterns: [
            { group: ['**/renderer/**'], message: 'main never imports the renderer.' },
            PRELOAD_SCRIPTS,
          ],
        },
      ],
    },
  },
  {
    files: ['main/shared/**', 'main/web/**', 'main/cli/**', 'main/demo-agent/**'],
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
            PRELOAD_SCRIPTS,
          ],
        },
      ],
    },
  },
  {
    // The core sits below every host, the command line included.
    files: ['main/core/**'],
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
              group: ['**/renderer/**', '**/electron/**', '**/cli/**'],
              message: 'The core is host-independent.',
            },
            PRELOAD_SCRIPTS,
          ],
        },
      ],
    },
  },
  {
    // What both sides use sits below both: it imports neither side, nor Node or Electron.
    files: ['preload/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '../*', 'electron', 'node:*', 'ws'],
              message: 'preload/shared/ is pure code that the main process and the renderer share.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['preload/shared/contract.ts', 'preload/shared/strip-contract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!zod$|\\./contract-plain\\.js$|\\./form-model\\.js$|\\./url-analysis-view\\.js$|\\./lasting-sessions\\.js$|\\./prompt-content\\.js$|\\./registry-view\\.js$)',
              message: 'The contract imports only zod and the pure views beside it.',
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
        ...syntaxBans,
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
