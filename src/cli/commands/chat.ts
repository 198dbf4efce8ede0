import { ExitCode, UsageError } from '../../core/errors.js';
import { startConversation } from '../../core/start-conversation.js';
import { createCliTools, toolNames } from '../approval.js';
import { createContext, openSession } from '../context.js';
import { type Io, readAll } from '../io.js';
import { createTurnRenderer, startSpinner, stderrChalk } from '../render.js';

export interface ChatOptions {
  words: string[];
  conversation?: string;
  json?: boolean;
  autoApprove?: boolean;
}

/** `cody chat`: one turn. The reply streams to stdout; everything else goes to stderr. */
export async function runChat(options: ChatOptions, io: Io): Promise<number> {
  const context = await createContext(io);
  let message = options.words.join(' ');
  if (message.trim() === '' && io.stdin.isTTY !== true) message = await readAll(io.stdin);
  if (message.trim() === '') {
    throw new UsageError('Nothing to send: give a message (cody chat "hello") or pipe one on stdin.');
  }
  const color = stderrChalk(io);
  let id = options.conversation
    ? await context.manager.resolveId(options.conversation)
    : await context.manager.getActiveId();
  if (id === undefined) {
    id = await startConversation(context.manager, context.config, {
      cwd: io.cwd,
      tools: toolNames(context.config),
    });
    io.stderr.write(color.dim(`Started conversation ${id}\n`));
  }
  const session = await openSession(context, id, {
    ...withTools(createCliTools(io, context.config, { autoApprove: options.autoApprove === true })),
    onLockWait: () => {
      io.stderr.write(
        color.yellow('Waiting for another cody process to finish writing to this conversation…\n'),
      );
    },
  });
  const abort = new AbortController();
  const onInterrupt = (): void => abort.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  const spinner = options.json ? undefined : await startSpinner(io, 'Thinking…');
  const renderer = createTurnRenderer(io, { json: options.json === true, ...(spinner ? { spinner } : {}) });
  try {
    for await (const event of session.submit(message.replace(/\n+$/, ''), { signal: abort.signal })) {
      renderer.handle(event);
    }
  } finally {
    renderer.end();
    process.removeListener('SIGINT', onInterrupt);
  }
  return ExitCode.ok;
}

function withTools<T>(tools: T | undefined): { tools?: T } {
  return tools ? { tools } : {};
}
