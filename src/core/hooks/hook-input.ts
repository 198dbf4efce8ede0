/**
 * What a hook reads on stdin: Claude Code's fields (`session_id`, `transcript_path`, `cwd`,
 * `hook_event_name`, `permission_mode`, and per event `tool_name`, `tool_input`, `tool_use_id`,
 * `tool_response`, `prompt`, `source`, `trigger`, `stop_hook_active`, `message`…). `tool_input` carries
 * Claude Code's argument names beside Cody's where they differ (`file_path`, `old_string`, `new_string`),
 * so `jq .tool_input.file_path` works for a hook written for Claude Code; `updatedInput` is mapped back.
 */
import { isAbsolute, resolve } from 'node:path';
import { isRecord } from '../../protocol/index.js';
import type { HookEventName } from './hook-config.js';

/** The fields every event carries. */
export interface HookCommonInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
}

/** Stdin of one event: the common fields, the event's name, and the event's own fields. */
export function hookInput(
  event: HookEventName,
  common: HookCommonInput,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return { ...common, hook_event_name: event, ...fields };
}

/** Cody's argument → Claude Code's name for it, per tool. */
const RENAMES: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  read_file: [['path', 'file_path']],
  write_file: [['path', 'file_path']],
  edit_file: [
    ['path', 'file_path'],
    ['old_text', 'old_string'],
    ['new_text', 'new_string'],
  ],
  view_image: [['path', 'file_path']],
};

/** The files an apply_patch input names (`*** Add File: a`, `*** Update File: b`, `*** Delete File: c`). */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const match of patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)) {
    const file = match[1]?.trim();
    if (file) files.push(file);
  }
  return files;
}

/** A call's arguments with Claude Code's names added (file paths absolute, as Claude Code gives them). */
export function claudeToolInput(
  tool: string,
  args: Record<string, unknown>,
  cwd: string,
): Record<string, unknown> {
  const input: Record<string, unknown> = { ...args };
  const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(cwd, path));
  for (const [cody, claude] of RENAMES[tool] ?? []) {
    const value = args[cody];
    if (value === undefined || claude in args) continue;
    input[claude] = claude === 'file_path' && typeof value === 'string' ? absolute(value) : value;
  }
  if (tool === 'apply_patch' && typeof args.input === 'string') {
    const files = patchFiles(args.input).map(absolute);
    if (files[0] !== undefined && !('file_path' in args)) input.file_path = files[0];
    input.file_paths = files;
  }
  return input;
}

/**
 * A hook's `updatedInput` as Cody's arguments: laid over the call's own, Claude Code's names mapped back
 * where the hook changed them (`file_path` → `path`), the names Cody added for hooks dropped.
 */
export function codyArgumentsFrom(
  tool: string,
  original: Record<string, unknown>,
  sent: Record<string, unknown>,
  updated: unknown,
): Record<string, unknown> | undefined {
  if (!isRecord(updated)) return undefined;
  const args: Record<string, unknown> = { ...original, ...updated };
  for (const [cody, claude] of RENAMES[tool] ?? []) {
    if (claude in original) continue;
    if (
      claude in updated &&
      updated[claude] !== sent[claude] &&
      !(cody in updated && updated[cody] !== original[cody])
    )
      args[cody] = updated[claude];
    delete args[claude];
  }
  if (tool === 'apply_patch') {
    if (!('file_path' in original)) delete args.file_path;
    if (!('file_paths' in original)) delete args.file_paths;
  }
  return args;
}
