import { describe, expect, it } from 'vitest';
import { matchesTool, matchesValue, toolNameAliases } from '../../../../src/core/hooks/matcher.js';

describe('hook matchers', () => {
  it("takes Claude Code's tool names as aliases of Cody's", () => {
    expect(matchesTool('Bash', 'shell')).toBe(true);
    expect(matchesTool('Read', 'read_file')).toBe(true);
    expect(matchesTool('Write', 'write_file')).toBe(true);
    expect(matchesTool('Edit', 'edit_file')).toBe(true);
    expect(matchesTool('Edit', 'apply_patch')).toBe(true);
    expect(matchesTool('MultiEdit', 'apply_patch')).toBe(true);
    expect(matchesTool('Grep|Glob|LS', 'list_directory')).toBe(true);
    expect(matchesTool('WebFetch', 'web_fetch')).toBe(true);
    expect(matchesTool('TodoWrite', 'update_plan')).toBe(true);
    expect(matchesTool('Bash', 'write_file')).toBe(false);
    expect(matchesTool('Write', 'shell')).toBe(false);
  });

  it('matches MCP tools by mcp__server__tool and by Cody’s own server__tool', () => {
    expect(toolNameAliases('github__search')).toEqual(['github__search', 'mcp__github__search']);
    expect(matchesTool('mcp__github__search', 'github__search')).toBe(true);
    expect(matchesTool('mcp__github__.*', 'github__search')).toBe(true);
    expect(matchesTool('github__search', 'github__search')).toBe(true);
    expect(matchesTool('mcp__.*', 'shell')).toBe(false);
  });

  it('is a regular expression over the whole name; *, empty and none match everything', () => {
    expect(matchesTool('Edit|Write', 'write_file')).toBe(true);
    expect(matchesTool('shell|edit_file', 'edit_file')).toBe(true);
    expect(matchesTool('read_.*', 'read_file')).toBe(true);
    // Anchored: a part of a name is no match.
    expect(matchesTool('Bas', 'shell')).toBe(false);
    expect(matchesTool('file', 'read_file')).toBe(false);
    for (const all of ['*', '', undefined]) expect(matchesTool(all, 'anything__else')).toBe(true);
    // A matcher that does not compile matches nothing (config validation refuses it first).
    expect(matchesTool('(', 'shell')).toBe(false);
  });

  it('matches a source, trigger or notification type; no value runs every hook', () => {
    expect(matchesValue('startup|resume', 'resume')).toBe(true);
    expect(matchesValue('compact', 'startup')).toBe(false);
    expect(matchesValue('manual', undefined)).toBe(true);
  });
});
