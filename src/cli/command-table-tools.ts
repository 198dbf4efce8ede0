/**
 * The command table's commands around conversations: which provider and model and their credentials,
 * the work tree and tools, the server. (The conversations' own commands are in `command-table.ts`.)
 */
import { Argument, type Command } from 'commander';
import type { Run } from './command-table.js';
import { commandNames, SERVE_HELP_AFTER } from './cli-options.js';
import { apisHelp, loginProvidersHelp, providersHelp, signInsHelp } from './provider-help.js';

/** `set-provider`, `auth`, `models`: which provider and model, and its credentials. */
export function providerCommands(program: Command, run: Run): void {
  program
    .command('set-provider')
    .description('choose the provider, API and model for the next turns')
    .argument('<provider>', providersHelp())
    .option('--api <api>', apisHelp())
    .option('--model <model>', 'model id')
    .option('--base-url <url>', "endpoint for this provider (e.g. an OpenAI-compatible server); '' clears it")
    .option('--auth <mode>', signInsHelp())
    .action((provider: string, options: { api?: string; model?: string; baseUrl?: string; auth?: string }) =>
      run(async (commandIo) =>
        (await import('./commands/set-provider.js')).runSetProvider({ ...options, provider }, commandIo),
      )(),
    );

  const auth = program
    .command('auth')
    .description('API keys saved by Cody, and where each credential comes from');
  auth
    .command('login')
    .description('save an API key in $CODY_HOME/auth.json (prompted without echo, or read from stdin)')
    .argument('<provider>', loginProvidersHelp())
    .action((provider: string) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthLogin({ provider }, commandIo))(),
    );
  auth
    .command('logout')
    .description('remove a saved API key')
    .argument('<provider>', loginProvidersHelp())
    .action((provider: string) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthLogout({ provider }, commandIo))(),
    );
  auth
    .command('status')
    .description("each provider's credential: where it comes from, its last 4 characters, whether it works")
    .option('--offline', 'make no request; report "not checked"')
    .action((options: { offline?: boolean }) =>
      run(async (commandIo) => (await import('./commands/auth.js')).runAuthStatus(options, commandIo))(),
    );

  program
    .command('models')
    .description("list the selected provider's models, from its own list (cached for a day)")
    .option('--refresh', 'ask the provider even when its list was fetched less than a day ago')
    .action((options: { refresh?: boolean }) =>
      run(async (commandIo) => (await import('./commands/models.js')).runModels(options, commandIo))(),
    );
}

/** `completion`, `undo`, `diff`, `mcp`: the work tree, tools and the shell. */
export function workspaceCommands(program: Command, run: Run): void {
  program
    .command('completion')
    .description('print a shell completion script: eval "$(cody completion bash)"')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') =>
      run(async (commandIo) =>
        (await import('./completion.js')).runCompletion(
          { shell, commands: commandNames(program) },
          commandIo,
        ),
      )(),
    );

  program
    .command('undo')
    .description('take back what the last turn(s) that changed files did, keeping files changed since')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--turns <n>', 'how many turns that changed files to undo', '1')
    .option('--force', 'restore files changed since the turn too (asks first)')
    .option('-y, --yes', 'with --force: do not ask (needed when stdin is not a terminal)')
    .action((options: { conversation?: string; turns?: string; force?: boolean; yes?: boolean }) =>
      run(async (commandIo) => (await import('./commands/undo.js')).runUndo(options, commandIo))(),
    );

  program
    .command('diff')
    .description('show what a turn changed, as a unified diff (default: the last turn that changed files)')
    .option('-c, --conversation <id>', 'conversation id or unique prefix (default: the active one)')
    .option('--turn <n>', 'the turn number (1 = the first turn of the conversation)')
    .option('--json', 'the changed files, with added and removed line counts, as JSON')
    .action((options: { conversation?: string; turn?: string; json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/diff.js')).runDiff(options, commandIo))(),
    );

  const mcp = program.command('mcp').description('MCP servers configured in config.json (mcpServers)');
  mcp
    .command('list')
    .description('start each MCP server and show its state and tools')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean }) =>
      run(async (commandIo) => (await import('./commands/mcp.js')).runMcpList(options, commandIo))(),
    );

  const hooks = program
    .command('hooks')
    .description("hooks (config.json's and the workspace's .cody/hooks.json)");
  hooks
    .command('list')
    .description('show the hooks that apply here, and whether the project hooks are trusted')
    .option('--json', 'machine-readable output')
    .action((options: { json?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/hooks.js')).runHooksCommand('list', options, commandIo),
      )(),
    );
  hooks
    .command('trust')
    .description("show the workspace's .cody/hooks.json commands and trust them as they are now")
    .action(() =>
      run(async (commandIo) =>
        (await import('./commands/hooks.js')).runHooksCommand('trust', {}, commandIo),
      )(),
    );
}

/** `mcp-server`: Cody as an MCP server on stdio, for other agents and MCP clients. */
export function mcpServerCommand(program: Command, run: Run): void {
  program
    .command('mcp-server')
    .description('serve Cody as an MCP server on stdin/stdout (tools: cody, cody-reply)')
    .action(() =>
      run(async (commandIo) => (await import('./commands/mcp-server.js')).runMcpServer(commandIo))(),
    );
}

/** `serve`, `web`: the engine over HTTP. */
export function serverCommands(program: Command, run: Run): void {
  program
    .command('acp')
    .description('speak the Agent Client Protocol on stdin/stdout, for editors (Zed, JetBrains, Neovim)')
    .action(() => run(async (commandIo) => (await import('./commands/acp.js')).runAcpCommand(commandIo))());

  program
    .command('serve')
    .description('serve conversations over HTTP (REST + server-sent events) on loopback, with a bearer token')
    .option('--host <host>', 'address to listen on (non-loopback needs --allow-remote)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--allow-remote', 'allow a non-loopback --host')
    .option('--cors-origin <origin>', 'allow browser requests from this one origin')
    .addHelpText('after', SERVE_HELP_AFTER)
    .action((options: { host?: string; port?: string; allowRemote?: boolean; corsOrigin?: string }) =>
      run(async (commandIo) => (await import('./commands/serve.js')).runServe(options, commandIo))(),
    );

  program
    .command('web')
    .description('serve conversations over HTTP and open the web page in your browser')
    .option('--host <host>', 'address to listen on (non-loopback needs --allow-remote)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--allow-remote', 'allow a non-loopback --host')
    .action((options: { host?: string; port?: string; allowRemote?: boolean }) =>
      run(async (commandIo) =>
        (await import('./commands/serve.js')).runServe(options, commandIo, { openBrowser: true }),
      )(),
    );
}
