/**
 * The JSON Schemas of Cody's built-in tools, as sent to the model. Kept apart from the implementations
 * so building a request loads no tool code (zod included).
 */
import type { ToolSpec } from '../../protocol/index.js';

export const BUILTIN_TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    description:
      'Read a text file, with line numbers. Paths are relative to the working directory. Use offset/limit (lines) to page through large files.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path' },
        offset: { type: 'integer', description: 'First line to return (1-based)', minimum: 1 },
        limit: { type: 'integer', description: 'Number of lines to return (default 2000)', minimum: 1 },
      },
      required: ['path'],
    },
  },
  {
    name: 'list_directory',
    description: 'List the entries of a directory (names; directories end with /).',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Directory path (default: the working directory)' },
      },
    },
  },
  {
    name: 'grep',
    description:
      'Search file contents with a regular expression, respecting .gitignore. Returns path:line:text for each matching line.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression' },
        path: { type: 'string', description: 'File or directory to search (default: the working directory)' },
        glob: { type: 'string', description: "Only files matching this glob, e.g. '*.ts' or 'src/**/*.js'" },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'glob',
    description: "List files matching a glob pattern (e.g. '**/*.ts'), respecting .gitignore.",
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Glob pattern' },
        path: { type: 'string', description: 'Directory to search (default: the working directory)' },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'shell',
    description:
      'Run a shell command (bash -c) and return its exit code and output (stdout and stderr interleaved).',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line' },
        workdir: { type: 'string', description: 'Directory to run in (default: the working directory)' },
        timeout_ms: {
          type: 'integer',
          description: 'Kill the command after this many milliseconds',
          minimum: 1,
        },
      },
      required: ['command'],
    },
  },
  {
    name: 'apply_patch',
    description: [
      'Edit files with a patch. The input is the whole patch:',
      '*** Begin Patch',
      '*** Add File: path/new.txt',
      '+content line',
      '*** Delete File: path/old.txt',
      '*** Update File: path/file.ts',
      '*** Move to: path/renamed.ts   (optional)',
      '@@ a line near the change (optional)',
      ' context line',
      '-removed line',
      '+added line',
      '*** End Patch',
      'Give about three lines of context around each change. Paths are relative to the working directory.',
    ].join('\n'),
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: 'The entire patch' } },
      required: ['input'],
    },
  },
  {
    name: 'write_file',
    description: 'Create or overwrite a text file with the given content.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    },
  },
  {
    name: 'edit_file',
    description: 'Replace exactly one occurrence of old_text with new_text in a file.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, old_text: { type: 'string' }, new_text: { type: 'string' } },
      required: ['path', 'old_text', 'new_text'],
    },
  },
  {
    // Codex's plan tool, argument for argument (without additionalProperties, which Gemini refuses).
    name: 'update_plan',
    description: [
      'Updates the task plan.',
      'Provide an optional explanation and a list of plan items, each with a step and status.',
      'At most one step can be in_progress at a time.',
    ].join('\n'),
    parameters: {
      type: 'object',
      properties: {
        explanation: { type: 'string' },
        plan: {
          type: 'array',
          description: 'The list of steps',
          items: {
            type: 'object',
            properties: {
              step: { type: 'string' },
              status: { type: 'string', description: 'One of: pending, in_progress, completed' },
            },
            required: ['step', 'status'],
          },
        },
      },
      required: ['plan'],
    },
  },
  {
    name: 'web_fetch',
    description:
      'Fetch a web page (GET, http or https) and return its main content as Markdown; other text types are returned as text, binary content is refused.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The http(s) URL to fetch' },
        max_length: {
          type: 'integer',
          description: 'At most this many characters of content (default 20000)',
          minimum: 1,
        },
      },
      required: ['url'],
    },
  },
  {
    name: 'view_image',
    description:
      'Look at an image file (PNG, JPEG, GIF or WebP, at most 20 MB), such as a screenshot or diagram in the workspace. The image is shown to you.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Image file path' } },
      required: ['path'],
    },
  },
];

/**
 * Tools that never change anything: they may run concurrently and need no undo snapshot. (web_fetch may
 * still ask first: it reaches the network.)
 */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'list_directory',
  'grep',
  'glob',
  'update_plan',
  'web_fetch',
  'view_image',
]);
