/**
 * One engine (`createCody`) per working directory: an engine's tools run in its directory, and a
 * conversation is always continued by the engine of the directory it was started in (its session_meta
 * `cwd`), so each conversation has one live handle in this process and one turn at a time holds.
 */
import { stat } from 'node:fs/promises';
import type { Cody, Conversation } from '../core/index.js';

export class Engines {
  readonly defaultCwd: string;
  private readonly make: (cwd: string) => Promise<Cody>;
  private readonly byCwd = new Map<string, Promise<Cody>>();

  constructor(defaultCwd: string, make: (cwd: string) => Promise<Cody>) {
    this.defaultCwd = defaultCwd;
    this.make = make;
  }

  /** The engine whose tools run in `cwd` (made the first time). */
  at(cwd: string): Promise<Cody> {
    let cody = this.byCwd.get(cwd);
    if (!cody) {
      cody = this.make(cwd);
      this.byCwd.set(cwd, cody);
    }
    return cody;
  }

  /** The live conversation with that id (or unique prefix), in the engine of its own workspace. */
  async open(id: string): Promise<Conversation> {
    const summary = await (await this.at(this.defaultCwd)).get(id);
    const cwd = summary.cwd ?? this.defaultCwd;
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) throw new Error(`the workspace of conversation ${summary.id} is gone: ${cwd}`);
    return (await this.at(cwd)).open(summary.id);
  }

  /** Interrupts every running turn (each recorded as interrupted) and closes every engine. */
  async close(): Promise<void> {
    const engines = [...this.byCwd.values()];
    this.byCwd.clear();
    await Promise.all(engines.map(async (cody) => (await cody).close()));
  }
}
