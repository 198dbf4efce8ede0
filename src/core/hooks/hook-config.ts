/**
 * The hooks configuration, in Claude Code's shape: `{"<Event>": [{"matcher": "…", "hooks": [{"type":
 * "command", "command": "…", "timeout": 60}]}]}`. Read from `hooks` in $CODY_HOME/config.json (the user's)
 * and from the workspace's `.cody/hooks.json` (the project's: that object, or one under a `hooks` key).
 * Validated here, at the trust boundary; events Cody does not fire are ignored.
 */
import { z } from 'zod';
import { compileMatcher } from './matcher.js';

export const HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'UserPromptSubmit',
  'Notification',
  'Stop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** A hook's time limit unless it sets `timeout` (seconds), as in Claude Code. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

const matcherSource = z.string().refine((source) => compileMatcher(source) !== undefined, {
  message: 'not a valid regular expression',
});

const commandHook = z
  .object({
    type: z.literal('command'),
    command: z.string().regex(/\S/, { message: 'an empty command' }).max(16_384),
    /** Seconds. */
    timeout: z.number().positive().max(86_400).optional(),
  })
  .passthrough();

const matcherGroup = z
  .object({ matcher: matcherSource.optional(), hooks: z.array(commandHook).max(64) })
  .passthrough();

const groups = z.array(matcherGroup).max(64).optional();

export const hooksConfigSchema = z
  .object(
    Object.fromEntries(HOOK_EVENTS.map((event) => [event, groups])) as Record<HookEventName, typeof groups>,
  )
  .passthrough();

export type HooksConfig = z.infer<typeof hooksConfigSchema>;

/** Where a hook came from: the user's config.json (trusted) or the workspace's `.cody/hooks.json`. */
export type HookSource = 'user' | 'project';

/** One configured command of one event. */
export interface HookEntry {
  event: HookEventName;
  /** The matcher as written (undefined, '' and '*' match everything). */
  matcher: string | undefined;
  command: string;
  timeoutMs: number;
  source: HookSource;
}

/** The entries of a validated hooks object, in file order. */
export function hookEntries(config: HooksConfig | undefined, source: HookSource): HookEntry[] {
  if (!config) return [];
  const entries: HookEntry[] = [];
  for (const event of HOOK_EVENTS) {
    for (const group of config[event] ?? []) {
      for (const hook of group.hooks) {
        entries.push({
          event,
          matcher: group.matcher,
          command: hook.command,
          timeoutMs: Math.round((hook.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS) * 1000),
          source,
        });
      }
    }
  }
  return entries;
}

/** A project file's content: the events object itself, or one under `hooks` (Claude Code's settings shape). */
export function parseProjectHooks(raw: unknown): HooksConfig {
  const inner =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'hooks' in raw
      ? (raw as { hooks: unknown }).hooks
      : raw;
  return hooksConfigSchema.parse(inner);
}
