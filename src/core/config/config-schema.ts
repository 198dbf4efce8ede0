/** The zod schema of `$CODY_HOME/config.json` (lenient about unknown keys). */
import { z } from 'zod';
import { REASONING_LEVELS } from '../../protocol/reasoning-levels.js';
import { isProvider, providerList, providerSettings } from './config.js';
import { isHttpUrl, isTimestamp } from './config-quick-check.js';
import { APPROVAL_POLICIES } from '../tools/index.js';
import { hooksConfigSchema } from '../hooks/index.js';

/** A regular expression that compiles. */
const regexSource = z.string().refine(
  (source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'not a valid regular expression' },
);

const httpUrl = z
  .string()
  .refine(isHttpUrl, { message: 'not an http(s) URL (e.g. http://localhost:11434/v1)' });

/** One of the registry's providers, checked when the file is read (a provider registered later counts). */
const providerName = z.string().refine(isProvider, (value) => ({
  message: `unknown provider '${value}' (choose one of: ${providerList().join(', ')})`,
}));

/** The sign-in a provider takes (`chatgpt`), when it takes one. */
function signInModeOf(provider: string): string | undefined {
  return isProvider(provider) ? providerSettings(provider).signIn?.mode : undefined;
}

/**
 * `{"<provider>": "<its sign-in>"}`: a provider that takes a sign-in, with its own mode only; keys of
 * providers without one are dropped, as unknown keys are everywhere in this file.
 */
const signInChoices = z
  .record(z.string(), z.unknown())
  .superRefine((choices, context) => {
    for (const [provider, mode] of Object.entries(choices)) {
      const offered = signInModeOf(provider);
      if (offered !== undefined && mode !== undefined && mode !== offered) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          path: [provider],
          message: `${provider} signs in with '${offered}'`,
        });
      }
    }
  })
  .transform((choices) =>
    Object.fromEntries(
      Object.entries(choices).filter(
        (entry): entry is [string, string] =>
          signInModeOf(entry[0]) !== undefined && typeof entry[1] === 'string',
      ),
    ),
  );

const mcpServerSchema = z.union([
  z
    .object({
      command: z.string().min(1),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
      cwd: z.string().optional(),
      timeoutMs: z.number().int().positive().optional(),
    })
    .passthrough(),
  z
    .object({
      url: z.string().url(),
      headers: z.record(z.string(), z.string()).optional(),
      timeoutMs: z.number().int().positive().optional(),
    })
    .passthrough(),
]);

const modelOverrideSchema = z
  .object({
    contextWindow: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    /** Whether the model reasons (asks the Responses API for encrypted reasoning); default: the catalogue. */
    reasoning: z.boolean().optional(),
    /** This model's reasoning level, over the top-level `reasoning`. */
    reasoningEffort: z.enum(REASONING_LEVELS).optional(),
    /** Whether the model takes images; default: the catalogue (a model it does not know is taken to). */
    images: z.boolean().optional(),
  })
  .passthrough();

export const configSchema = z
  .object({
    provider: providerName.optional(),
    api: z.string().optional(),
    model: z.string().min(1).optional(),
    /** Base URL per provider, so switching provider never sends a key to another provider's host. */
    baseUrls: z.record(z.string(), httpUrl).optional(),
    /** Subscription sign-in per provider (`cody set-provider openai --auth chatgpt`). */
    auth: signInChoices.optional(),
    /** When `cody set-provider` made the choice above (it then wins over what a conversation recorded before). */
    selectedAt: z.string().refine(isTimestamp, { message: 'not an ISO-8601 time' }).optional(),
    models: z.record(z.string(), modelOverrideSchema).optional(),
    /** How hard reasoning models reason (`off` … `high`); absent: each API's own default. */
    reasoning: z.enum(REASONING_LEVELS).optional(),
    /** Whether the REPL shows the model's thinking as it streams (dimmed, folded); default true. */
    showReasoning: z.boolean().optional(),
    compact: z
      .object({
        threshold: z.number().gt(0).lte(1).optional(),
        tokenLimit: z.number().int().positive().optional(),
        auto: z.boolean().optional(),
      })
      .passthrough()
      .optional(),
    toolOutputTokens: z.number().int().positive().optional(),
    retry: z
      .object({
        maxRetries: z.number().int().min(0).max(20).optional(),
        baseDelayMs: z.number().int().min(0).optional(),
        maxDelayMs: z.number().int().min(0).optional(),
      })
      .optional(),
    lockTimeoutMs: z.number().int().min(0).optional(),
    /**
     * How long a tool call's approval request waits before it is declined with "no answer" and the turn
     * goes on (default 10 minutes; 0: it waits until answered or aborted).
     */
    approvalTimeoutMs: z.number().int().min(0).optional(),
    /** Regular expressions whose matches are replaced by [REDACTED] in rollouts, history and exports. */
    redact: z.array(z.string()).optional(),
    /** Offer the built-in tools (files, shell) to the model; default true. */
    tools: z.boolean().optional(),
    /** Approval policy when no --approval flag is given (default 'ask'). */
    approval: z.enum(APPROVAL_POLICIES).optional(),
    /**
     * Without a sandbox, full-auto also runs unasked the commands Cody cannot show stay in the workspace
     * (interpreters, build tools, unknown programs); as `--dangerously-skip-confinement`. Default false.
     */
    dangerouslySkipConfinement: z.boolean().optional(),
    /** Commands that always ask, replacing the default list: regex sources or { pattern, reason }. */
    dangerousCommands: z
      .array(z.union([regexSource, z.object({ pattern: regexSource, reason: z.string() })]))
      .optional(),
    /** Bubblewrap for shell commands that run without asking (default on where installed; no network). */
    sandbox: z.object({ enabled: z.boolean().optional(), network: z.boolean().optional() }).optional(),
    shellTimeoutMs: z.number().int().positive().optional(),
    /** Read-only commands that run without asking when their paths stay inside the workspace (replaces the list). */
    safeCommands: z.array(z.string().regex(/\S/, { message: 'an empty command' })).optional(),
    /** What tool processes inherit from Cody's environment; Cody's own credentials never. */
    shellEnvironment: z
      .object({
        inherit: z.enum(['all', 'core', 'none']).optional(),
        exclude: z.array(z.string().min(1)).optional(),
        set: z.record(z.string(), z.string()).optional(),
        ignoreDefaultExcludes: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** web_fetch: hosts fetched without asking; whether loopback/private addresses may be fetched. */
    webFetch: z
      .object({
        allowedHosts: z.array(z.string().regex(/^(\*\.)?[^\s/:*]+$/, { message: 'a host name' })).optional(),
        allowPrivate: z.boolean().optional(),
      })
      .strict()
      .optional(),
    /** MCP servers, in the shape Claude Code and Cursor use. */
    mcpServers: z.record(z.string(), mcpServerSchema).optional(),
    /** Per-call timeout for MCP tools (a server's own `timeoutMs` wins). */
    mcpToolTimeoutMs: z.number().int().positive().optional(),
    /** The user's hooks, in Claude Code's shape: `{"PreToolUse": [{"matcher": "Bash", "hooks": [...]}]}`. */
    hooks: hooksConfigSchema.optional(),
    /** Instruction file names tried per directory, in order; the first found is used (default AGENTS.md, CLAUDE.md, GEMINI.md). */
    projectDocs: z.array(z.string().regex(/^[^/\\]+$/, { message: 'a file name, not a path' })).optional(),
    /** At most this many bytes of instruction files are sent per turn (default 32 KiB). */
    projectDocMaxBytes: z.number().int().positive().optional(),
    /**
     * The REPL's status line drawn by the person's own command (Claude Code's shape), given the session's
     * state as JSON on stdin; its first line of output is shown under the prompt. User config only.
     */
    statusLine: z
      .object({
        type: z.literal('command'),
        command: z.string().regex(/\S/, { message: 'an empty command' }),
        /** How long the command may run before it is killed (default 1000 ms). */
        timeoutMs: z.number().int().positive().max(10_000).optional(),
        /** Claude Code's; accepted and ignored, so a copied setting loads. */
        padding: z.number().int().min(0).optional(),
      })
      .strict()
      .optional(),
    /** How the REPL says an approval waits or a long turn ended: terminal notification, bell, or nothing. */
    notifications: z.enum(['auto', 'bell', 'off']).optional(),
  })
  .passthrough();
