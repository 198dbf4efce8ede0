/**
 * A full and a read-only CODY_HOME, on a small tmpfs (mounting needs root; otherwise skipped with a
 * message). A message that cannot be written must not be sent: exit 8, its text printed so it is not
 * lost, and the rollout never holds an answer without its question. Reading commands still work on a
 * read-only home.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTortureHome } from './home.js';
import { hasStackTrace, runCody } from './run-cody.js';

export interface StorageFigures {
  skipped?: string;
  cases: number;
  wrongExitCodes: number;
  sentWithoutBeingSaved: number;
  messageLost: number;
  answersWithoutQuestion: number;
  firstFailure?: string;
}

function answerWithoutQuestion(text: string): boolean {
  let questions = 0;
  let answers = 0;
  for (const line of text.split('\n')) {
    if (line.includes('"type":"response_item"') && line.includes('"role":"user"')) questions += 1;
    if (line.includes('"type":"response_item"') && line.includes('"role":"assistant"')) answers += 1;
  }
  return answers > questions;
}

export async function runStorage(): Promise<StorageFigures> {
  const figures: StorageFigures = {
    cases: 0,
    wrongExitCodes: 0,
    sentWithoutBeingSaved: 0,
    messageLost: 0,
    answersWithoutQuestion: 0,
  };
  if (process.getuid?.() !== 0) {
    figures.skipped = 'not root: mounting a small tmpfs needs root, full and read-only CODY_HOME skipped';
    return figures;
  }
  const torture = await createTortureHome();
  const mount = join(torture.root, 'tmpfs');
  await mkdir(mount);
  const note = (failure: string): void => {
    figures.firstFailure ??= failure;
  };
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', mount]);
    const env = { ...torture.env, CODY_HOME: join(mount, 'cody') };
    const run = (args: string[]) => runCody(args, { env, cwd: torture.root, deadlineMs: 30_000 });
    const id = (await run(['new'])).stdout.trim();
    await run(['chat', 'a first question']);

    // Full: fill the file system, then send a long message.
    try {
      for (let index = 0; ; index += 1)
        await writeFile(join(mount, `filler-${index}`), Buffer.alloc(16_384, 120));
    } catch {
      // ENOSPC: full
    }
    const marker = `full-disk-message-${Date.now()}`;
    const long = `${marker} ${'this message does not fit on the disk '.repeat(700)}`;
    torture.server.reset();
    const full = await run(['chat', '--conversation', id, long]);
    figures.cases += 1;
    if (full.code !== 8) {
      figures.wrongExitCodes += 1;
      note(`full: exit ${String(full.code)}`);
    }
    const sent = torture.server
      .modelRequests()
      .some((request) => JSON.stringify(request.body).includes(marker));
    const saved = (await torture.rolloutText(id)).includes(marker);
    if (sent && !saved) {
      figures.sentWithoutBeingSaved += 1;
      note('full: sent without being saved');
    }
    if (!saved && !`${full.stdout}${full.stderr}`.includes(marker)) {
      figures.messageLost += 1;
      note('full: message lost');
    }
    if (answerWithoutQuestion(await torture.rolloutText(id))) {
      figures.answersWithoutQuestion += 1;
      note('full: answer without question');
    }
    if (hasStackTrace(full.stderr)) note('full: stack trace');

    // Read-only.
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    torture.server.reset();
    const readOnly = await run(['chat', '--conversation', id, 'on a read-only home']);
    figures.cases += 1;
    if (readOnly.code !== 8) {
      figures.wrongExitCodes += 1;
      note(`read-only: exit ${String(readOnly.code)}`);
    }
    if (torture.server.modelRequests().length > 0) {
      figures.sentWithoutBeingSaved += 1;
      note('read-only: sent');
    }
    for (const args of [['show', id], ['list']]) {
      const result = await run(args);
      figures.cases += 1;
      if (result.code !== 0) {
        figures.wrongExitCodes += 1;
        note(`read-only ${args[0] ?? ''}: exit ${String(result.code)} ${result.stderr}`);
      }
    }
  } finally {
    try {
      execFileSync('umount', [mount]);
    } catch {
      // not mounted
    }
    await torture.close();
  }
  return figures;
}
