/** RawTerminal keeps keys that arrive while nobody listens, for the next prompt and never for a question. */
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Key } from '../../../src/cli/tty/keys.js';
import { RawTerminal } from '../../../src/cli/tty/terminal.js';

class FakeInput extends EventEmitter {
  resume(): void {}
  pause(): void {}
  type(text: string): void {
    this.emit('data', text);
  }
}

const texts = (keys: Key[]): string[] => keys.map((key) => (key.name === 'text' ? key.text : key.name));

describe('keys typed while nobody listens', () => {
  const input = new FakeInput();
  const terminal = new RawTerminal(input, { write: () => undefined });
  terminal.start();
  afterEach(() => terminal.listen(undefined));
  afterAll(() => terminal.stop());

  it('go to the next listener that takes typed-ahead keys, in order, before new ones', () => {
    input.type('ab');
    input.type('\u001b'); // Escape, alone
    const got: Key[] = [];
    terminal.listen((key) => got.push(key), { typedAhead: true });
    input.type('c');
    expect(texts(got)).toEqual(['ab', 'escape', 'c']);
  });

  it('never answer a question: it gets only what is typed while it listens, and the rest waits', () => {
    input.type('y');
    const answers: Key[] = [];
    terminal.listen((key) => answers.push(key));
    expect(answers).toEqual([]);
    input.type('n');
    expect(texts(answers)).toEqual(['n']);
    terminal.listen(undefined);
    const prompt: Key[] = [];
    terminal.listen((key) => prompt.push(key), { typedAhead: true });
    expect(texts(prompt)).toEqual(['y']);
  });

  it('stop at a listener that stops listening (Enter ends a prompt): the rest go to the next one', () => {
    input.type('one');
    input.type('\r');
    input.type('two');
    const first: Key[] = [];
    terminal.listen(
      (key) => {
        first.push(key);
        if (key.name === 'enter') terminal.listen(undefined);
      },
      { typedAhead: true },
    );
    expect(texts(first)).toEqual(['one', 'enter']);
    const second: Key[] = [];
    terminal.listen((key) => second.push(key), { typedAhead: true });
    expect(texts(second)).toEqual(['two']);
  });
});
