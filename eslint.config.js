// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Terminal and CLI libraries core must never touch. */
const terminalLibraries = ['commander', 'chalk', 'ora'];

/**
 * What the front ends (src/cli, src/server) may import from core: its front door, `core/index.ts`
 * (createCody and what goes with it), and a deliberate list of leaf modules that hold no engine state
 * (errors, event types, config and paths, the redactor, readers of what is on disk, the auth commands'
 * helpers, undo). Everything else, the session, the conversation manager, the tool runtime, MCP, the
 * rollout recorder, is core's own: a front end obtains conversations from createCody (issue 20).
 */
const corePublicModules = [
  'index',
  'errors',
  'conversation/session-events',
  'conversation/plan',
  'project/prompt-commands',
  'config/config',
  'config/paths',
  'redact/redact',
  'redact/known-secrets',
  'store/export-formats',
  'store/conversation-list',
  'store/conversation-titles',
  'store/conversation-stats',
  'store/conversation-id',
  'selection/provider-choice',
  'selection/resolve-selection',
  'selection/model-catalog',
  'selection/provider-catalogue',
  'selection/infer-provider',
  'tools/policy',
  'tools/workspace',
  'auth/auth-status',
  'auth/claude-signin',
  'auth/codex-signin',
  'auth/key-store',
  'auth/provider-endpoints',
  'auth/resolve-credentials',
  'undo/turn-diff',
  'undo/turn-snapshots',
  'undo/undo-turns',
];
const coreEntryMessage =
  'front ends import core only through its entry points: src/core/index.ts (createCody) and the leaf modules listed in eslint.config.js.';
// Files only (`*.js`): a pattern that matched core's folders would keep their public files out too.
const coreEntryPoints = {
  group: ['**/core/**/*.js', ...corePublicModules.map((module) => `!**/core/${module}.js`)],
  message: coreEntryMessage,
};
/** The same rule for `import('…')`, which no-restricted-imports does not see. */
const coreDynamicImports = {
  selector: `ImportExpression[source.value=/\\/core\\/(?!(${corePublicModules.map((module) => module.replace('/', '\\/')).join('|')})\\.js$)/]`,
  message: coreEntryMessage,
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench-tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The launcher is CommonJS (bin/package.json): see bin/cody.js.
    files: ['bin/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', __dirname: 'readonly', process: 'readonly', setTimeout: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Small files with one job each, and functions that fit on a screen or two (issue 8).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Carve-out, one long function on purpose: the tool runtime's closure factory (its methods share
    // private state); split when touched.
    files: ['src/core/tools/runtime.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/core/**', '**/cli/**', '**/providers/**'], message: 'protocol is a leaf module.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: terminalLibraries.map((name) => ({ name, message: 'providers know nothing of terminals.' })),
          patterns: [
            {
              group: ['**/core/**', '**/core', '**/cli/**', '**/cli'],
              message: 'providers import only the canonical types (src/protocol).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: terminalLibraries.map((name) => ({
            name,
            message: 'core never imports terminal libraries.',
          })),
          patterns: [
            { group: ['**/cli/**', '**/cli'], message: 'core never imports the cli layer.' },
            { group: ['**/server/**', '**/server'], message: 'core knows nothing of HTTP or the server.' },
            {
              group: ['openai', 'openai/*', '@anthropic-ai/*', '@google/genai', '@google/genai/*'],
              message: 'core never imports an SDK; go through src/providers.',
            },
          ],
        },
      ],
    },
  },
  {
    // The web page runs in a browser and speaks HTTP only: nothing of the engine, the server or Node.
    files: ['src/web/**/*.ts', 'src/web/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/**', '**/cli/**', '**/server/**', '**/providers/**', '**/protocol/**'],
              message: 'the web page talks to cody serve over HTTP (src/web/api.ts), never to its modules.',
            },
            { group: ['node:*'], message: 'the web page runs in a browser.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/server/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', coreDynamicImports] },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [coreEntryPoints] }] },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: terminalLibraries.map((name) => ({
            name,
            message: 'the server knows nothing of terminals.',
          })),
          patterns: [
            coreEntryPoints,
            {
              group: ['**/cli/**', '**/cli'],
              message: 'the server is a front end beside the cli, not on it.',
            },
            {
              group: ['openai', 'openai/*', '@anthropic-ai/*', '@google/genai', '@google/genai/*'],
              message: 'the server drives the engine (src/core), never an SDK.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  prettier,
);
