/**
 * The one place where config.json (and the options of `createCody`) becomes the engine's runtime: which
 * tools a conversation offers and under what approval policy, sandbox, dangerous-command list and shell
 * timeout; which MCP servers it may start (lazily, at its first turn); how long it waits for another
 * process's lock, and how long an approval waits for an answer. (What is redacted is the session's own
 * business: it reads config.json's `redact` and the keys Cody knows.) Every front end gets the same
 * meaning of config.json through `createCody`, which is the only caller.
 */
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../turn/index.js';
import { resolveCodyPaths, type CodyConfig } from '../config/index.js';
import type { CodyNotice } from '../conversation/index.js';
import type { ConversationManagerOptions } from '../store/index.js';
import { DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from '../tools/index.js';
import type { EditorFiles, ToolRuntime } from '../tools/index.js';

/** What a front end (or a program) adds to config.json: only what is its own. */
export interface RuntimeInputs {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Recorded in session_meta and sent to MCP servers as the client version. */
  version: string;
  /** Cody's home (`$CODY_HOME`, or `createCody`'s `home`): its auth.json is hidden from commands. */
  home?: string | undefined;
  /** A policy the caller chose (a flag, a library option); else config.json's `approval`, else 'ask'. */
  approvalPolicy?: ApprovalPolicy | undefined;
  /** The caller's approval timeout; else config.json's `approvalTimeoutMs`, else 10 minutes. */
  approvalTimeoutMs?: number | undefined;
  /** Replaces the built-in tools; `false`: no tools at all. */
  tools?: ToolRuntime | false | undefined;
  /** `--dangerously-skip-confinement`: on for this run whatever config.json says. */
  unconfined?: boolean | undefined;
  onNotice?: ((notice: CodyNotice) => void) | undefined;
  /** The editor's buffers, which read_file reads (`cody acp`). */
  editorFiles?: EditorFiles | undefined;
  /** MCP servers besides config.json's (config.json's win a name both have). */
  mcpServers?: CodyConfig['mcpServers'] | undefined;
}

export interface EngineRuntime {
  /** How the conversation store opens rollouts (lock timeout). */
  managerOptions: ConversationManagerOptions;
  /** The approval policy new tool runtimes start with. */
  approvalPolicy: ApprovalPolicy;
  /** The same, or undefined when conversations have no tools (what a banner shows before one opens). */
  startingPolicy: ApprovalPolicy | undefined;
  /** Without a caller's policy, a conversation keeps the policy its last turn recorded. */
  followConversationPolicy: boolean;
  /** How long an approval request waits for an answer before it is declined "no answer" (0: forever). */
  approvalTimeoutMs: number;
  /** The names of the tools a new conversation's instructions mention (built-in ones; MCP tools arrive later). */
  toolNames(): Promise<readonly string[]>;
  /** A fresh tool runtime for one live conversation (undefined: no tools); closed with the conversation. */
  createTools(): Promise<ToolRuntime | undefined>;
  /**
   * The warning that full-auto would run shell commands with no sandbox here, for a front end's banner
   * when the policy in force is full-auto (undefined when a sandbox can be used, or with no built-in tools).
   */
  unconfinedWarning(): Promise<string | undefined>;
}

export function engineRuntime(config: CodyConfig, inputs: RuntimeInputs): EngineRuntime {
  const toolsOff = inputs.tools === false || config.tools === false;
  const approvalPolicy = inputs.approvalPolicy ?? config.approval ?? DEFAULT_APPROVAL_POLICY;
  return {
    managerOptions: {
      cliVersion: inputs.version,
      ...(config.lockTimeoutMs !== undefined ? { lockTimeoutMs: config.lockTimeoutMs } : {}),
    },
    approvalPolicy,
    startingPolicy: toolsOff ? undefined : approvalPolicy,
    followConversationPolicy: inputs.approvalPolicy === undefined,
    approvalTimeoutMs: inputs.approvalTimeoutMs ?? config.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    toolNames: async () => {
      if (toolsOff) return [];
      if (inputs.tools) return inputs.tools.specs().map((spec) => spec.name);
      const { BUILTIN_TOOL_SPECS } = await import('../tools/tool-specs.js');
      return BUILTIN_TOOL_SPECS.map((spec) => spec.name);
    },
    createTools: async () => {
      if (toolsOff) return undefined;
      if (inputs.tools) return inputs.tools;
      return builtinTools(config, inputs, approvalPolicy);
    },
    unconfinedWarning: async () => {
      if (toolsOff || inputs.tools) return undefined;
      const [{ detectSandbox }, { openWorkspace }, { noSandboxWarning }] = await Promise.all([
        import('../tools/sandbox.js'),
        import('../tools/workspace.js'),
        import('../tools/policy.js'),
      ]);
      const state = detectSandbox(config.sandbox ?? {}, openWorkspace(inputs.cwd), { ...inputs.env });
      const unconfined = inputs.unconfined === true || config.dangerouslySkipConfinement === true;
      return noSandboxWarning('full-auto', state.available, unconfined);
    },
  };
}

async function builtinTools(
  config: CodyConfig,
  inputs: RuntimeInputs,
  policy: ApprovalPolicy,
): Promise<ToolRuntime> {
  const [{ createToolRuntime }, { toolOptionsFromConfig }, { createLazyMcpTools }, { signInFiles }] =
    await Promise.all([
      import('../tools/runtime.js'),
      import('../tools/runtime-config.js'),
      import('../mcp/lazy-mcp-tools.js'),
      import('../auth/index.js'),
    ]);
  const notice = inputs.onNotice ?? (() => undefined);
  const external = createLazyMcpTools({
    servers: { ...inputs.mcpServers, ...config.mcpServers },
    cwd: inputs.cwd,
    clientVersion: inputs.version,
    onWarning: (message) => notice({ level: 'warning', message }),
    ...(config.mcpToolTimeoutMs !== undefined ? { callTimeoutMs: config.mcpToolTimeoutMs } : {}),
  });
  return createToolRuntime({
    cwd: inputs.cwd,
    policy,
    ...toolOptionsFromConfig(config),
    ...(inputs.unconfined === true ? { unconfined: true } : {}),
    onNotice: (message) => notice({ level: 'notice', message }),
    ...(external ? { external } : {}),
    env: { ...inputs.env },
    credentialFiles: signInFiles(inputs.home ?? resolveCodyPaths(inputs.env).home, inputs.env),
    ...(inputs.editorFiles ? { editorFiles: inputs.editorFiles } : {}),
  });
}
