/** The interactive chat: a prompt loop over one Session, with a few slash commands. */
import { createInterface } from 'node:readline/promises';
import { ExitCode } from '../core/errors.js';
import { startConversation } from '../core/start-conversation.js';
import { askApproval, createCliTools, toolNames } from './approval.js';
import { createContext, openSession } from './context.js';
import { type Io, readAll } from './io.js';
import { createTurnRenderer, formatTokens, startSpinner, stderrChalk } from './render.js';
import { reportError } from './report-error.js';

const HELP = `Commands: /status  /compact [focus]  /new  /id  /help  /exit (or Ctrl-D)\n`;

export async function runRepl(options: { conversation?: string }, io: Io): Promise<number> {
  if (io.stdin.isTTY !== true) {
    // Not a terminal: behave like `cody chat` with the message on stdin.
    const text = await readAll(io.stdin);
    if (text.trim() === '') {
      io.stderr.write('cody: nothing on stdin. Usage: cody chat "message" (see cody --help)\n');
      return ExitCode.usage;
    }
    const { runChat } = await import('./commands/chat.js');
    return runChat(
      { words: [text], ...(options.conversation ? { conversation: options.conversation } : {}) },
      io,
    );
  }
  const context = await createContext(io);
  const color = stderrChalk(io);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  // Approval questions go through the same readline interface as the chat prompt.
  const tools = createCliTools(io, context.config, {});
  const toolsOption = { ...(tools ? { tools } : {}), canAsk: true };
  let id = options.conversation
    ? await context.manager.resolveId(options.conversation)
    : await context.manager.getActiveId();
  id ??= await startConversation(context.manager, context.config, {
    cwd: io.cwd,
    tools: toolNames(context.config),
  });
  let session = await openSession(context, id, { ...toolsOption });
  const status = session.status();
  io.stderr.write(color.dim(`Cody · ${status.provider}/${status.model} · conversation ${id}\n${HELP}`));
  let abort: AbortController | undefined;
  prompt.on('SIGINT', () => {
    if (abort) abort.abort(new Error('interrupted'));
    else prompt.close();
  });
  try {
    for (;;) {
      let line: string;
      try {
        line = await prompt.question(color.bold('you › '));
      } catch {
        break;
      }
      const text = line.trim();
      if (text === '') continue;
      if (text === '/exit' || text === '/quit') break;
      if (text === '/help') {
        io.stderr.write(HELP);
        continue;
      }
      if (text === '/id') {
        io.stderr.write(`${session.id}\n`);
        continue;
      }
      if (text === '/status') {
        const current = session.status();
        io.stderr.write(
          `${current.provider}/${current.model} · ${formatTokens(current.contextTokens)} of ${formatTokens(current.contextWindow)} tokens · ${current.compactions} compactions\n`,
        );
        continue;
      }
      if (text === '/new') {
        const newId = await startConversation(context.manager, context.config, {
          cwd: io.cwd,
          tools: toolNames(context.config),
        });
        session = await openSession(context, newId, { ...toolsOption });
        io.stderr.write(color.dim(`Started conversation ${newId}\n`));
        continue;
      }
      abort = new AbortController();
      const renderer = createTurnRenderer(io, {});
      try {
        if (text.startsWith('/compact')) {
          const focus = text.slice('/compact'.length).trim();
          const generator = session.compact(focus || undefined, abort.signal);
          for (let step = await generator.next(); step.done !== true; step = await generator.next())
            renderer.handle(step.value);
        } else {
          const spinner = await startSpinner(io, 'Thinking…');
          const turnRenderer = createTurnRenderer(io, spinner ? { spinner } : {});
          try {
            for await (const event of session.submit(line, { signal: abort.signal })) {
              turnRenderer.handle(event);
              if (event.type === 'approval-requested')
                session.respond(
                  event.id,
                  await askApproval(io, event, (question) => prompt.question(question)),
                );
            }
          } finally {
            turnRenderer.end();
          }
        }
      } catch (error) {
        reportError(error, io, false);
      } finally {
        renderer.end();
        abort = undefined;
      }
    }
  } finally {
    prompt.close();
  }
  return ExitCode.ok;
}
