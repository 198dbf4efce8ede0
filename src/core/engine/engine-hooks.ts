/** The engine's hooks, made once per engine, lazily (commands that open no conversation never pay for them). */
import type { CodyConfig } from '../config/index.js';
import type { HookSet } from '../hooks/index.js';

/** What making the hooks needs of the engine. */
export interface HookEngine {
  cwd: string;
  /** The real home (an ephemeral engine's too): where trusted project hooks are recorded. */
  home: string;
  load: () => Promise<{ config: CodyConfig }>;
  hookSet?: Promise<HookSet>;
}

/** The engine's hooks: config.json's `hooks` and the workspace's `.cody/hooks.json` once trusted. */
export function hookSetOf(engine: HookEngine): Promise<HookSet> {
  engine.hookSet ??= (async () => {
    const { config } = await engine.load();
    const { HookSet } = await import('../hooks/index.js');
    return new HookSet({
      home: engine.home,
      cwd: engine.cwd,
      userHooks: config.hooks,
      ...(config.shellEnvironment ? { shellEnvironment: config.shellEnvironment } : {}),
    });
  })();
  return engine.hookSet;
}
