// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

/** Terminal and CLI libraries core must never touch. */
const terminalLibraries = ['commander', 'chalk', 'ora'];

/** Core's folders, one job each; a folder's `index.ts` is its public surface. */
const coreFolders = [
  'auth',
  'compact',
  'config',
  'conversation',
  'engine',
  'fs',
  'hooks',
  'images',
  'live-channel',
  'mcp',
  'project',
  'redact',
  'rollout',
  'selection',
  'store',
  'tokens',
  'tools',
  'turn',
  'undo',
];
/**
 * Inside core, a module reaches another folder through that folder's `index.ts` only. A dynamic
 * `import()` may name a module directly: that is how heavy modules (the session, MCP, the rollout
 * schema) stay out of the commands that never need them.
 */
const coreFolderImport = (prefix) => `/^${prefix}(${coreFolders.join('|')})\\/(?!index\\.js$)[^/]+\\.js$/`;
const throughFolderIndex = (prefix) =>
  ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].map((node) => ({
    selector: `${node}[source.value=${coreFolderImport(prefix)}]`,
    message:
      "import another core folder through its index.ts (its public surface); only import('…') may name a module.",
  }));

/**
 * The front ends (src/cli, src/server, src/acp, src/mcp-server) import core through one door,
 * `src/core/index.ts` (createCody, the Cody API's types, core's errors and the leaf helpers it
 * re-exports), types included, with no exception list: any other path into core — a folder's index, a
 * module, `core/errors.ts` — is refused, static, `export … from` and `import()` alike (issue 30).
 */
const frontEnds = ['src/cli/**/*.ts', 'src/server/**/*.ts', 'src/acp/**/*.ts', 'src/mcp-server/**/*.ts'];
/** A relative path with a `core` folder in it, other than `…/core/index.js`. */
const pastTheDoor = '^(\\.\\.?/)+([^/]+/)*core(/(?!index\\.js$).*)?$';
const coreDoorMessage =
  'front ends import core only through src/core/index.ts (the Cody API); no other core module.';
const coreDoor = { regex: pastTheDoor, message: coreDoorMessage };
/** The same rule for `import()`, which no-restricted-imports does not see. */
const coreDynamicImports = {
  selector: `ImportExpression[source.value=/${pastTheDoor.replaceAll('/', '\\/')}/]`,
  message: coreDoorMessage,
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
      // A function over 80 lines carries its reason: `// eslint-disable-next-line max-lines-per-function -- why`.
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
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
    files: ['src/core/*/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...throughFolderIndex('(\\.\\.\\/)+')] },
  },
  {
    files: ['src/core/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...throughFolderIndex('\\.\\/')] },
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
    files: frontEnds,
    rules: { 'no-restricted-syntax': ['error', coreDynamicImports] },
  },
  {
    files: ['src/cli/**/*.ts', 'src/acp/**/*.ts', 'src/mcp-server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [coreDoor] }] },
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
            coreDoor,
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
    // `cody mcp-server`: the one door into core, and a front end beside the others, never on them.
    files: ['src/mcp-server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: terminalLibraries.map((name) => ({
            name,
            message: 'the MCP server speaks JSON-RPC, not to a terminal.',
          })),
          patterns: [
            coreDoor,
            {
              group: [
                '../cli/**',
                '../server/**',
                '../acp/**',
                '../providers/**',
                '../protocol/**',
                '../web/**',
              ],
              message:
                'the MCP server is a front end beside the others; it reaches the engine through core/index.ts.',
            },
            {
              group: ['openai', 'openai/*', '@anthropic-ai/*', '@google/genai', '@google/genai/*'],
              message: 'the MCP server drives the engine (src/core), never a model SDK.',
            },
          ],
        },
      ],
    },
  },
  {
    // `cody acp`: the one door into core, and a front end beside the others, never on them.
    files: ['src/acp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: terminalLibraries.map((name) => ({
            name,
            message: 'the ACP agent speaks JSON-RPC, not to a terminal.',
          })),
          patterns: [
            coreDoor,
            {
              group: [
                '../cli/**',
                '../server/**',
                '../mcp-server/**',
                '../providers/**',
                '../protocol/**',
                '../web/**',
              ],
              message:
                'src/acp is a front end beside the others; it reaches the engine through core/index.ts.',
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
