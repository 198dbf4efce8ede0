import { describe, expect, it } from 'vitest';
import { SLASH_COMMANDS } from '../../../../src/cli/repl-input.js';
import {
  expandPromptBody,
  parseCommandMessage,
  parseFrontMatter,
  RESERVED_COMMAND_NAMES,
} from '../../../../src/core/project/prompt-commands.js';

describe('prompt commands', () => {
  it('reserves every built-in REPL command, so no prompt file shadows one', () => {
    for (const [name] of SLASH_COMMANDS) expect(RESERVED_COMMAND_NAMES).toContain(name.slice(1));
  });

  it('replaces $ARGUMENTS and $1…$9 (quoted words whole, missing ones empty)', () => {
    expect(expandPromptBody('[$1] [$2] [$3] <$ARGUMENTS>', 'a.ts "two words"')).toBe(
      '[a.ts] [two words] [] <a.ts "two words">',
    );
  });

  it('reads the description from front matter and keeps the body', () => {
    expect(parseFrontMatter('---\ndescription: "Review a file"\n---\nBody $1\n')).toEqual({
      description: 'Review a file',
      body: 'Body $1\n',
    });
    expect(parseFrontMatter('No front matter')).toEqual({ body: 'No front matter' });
  });

  it('takes a first word with no further slash as a command, a path as a message', () => {
    expect(parseCommandMessage('/review src/a.ts')).toEqual({ name: 'review', argumentsText: 'src/a.ts' });
    expect(parseCommandMessage('/usr/bin is on my PATH?')).toBeUndefined();
    expect(parseCommandMessage('hello /review')).toBeUndefined();
  });
});
