/**
 * The live channel as `createCody` holds it: nothing is loaded until a conversation opens or a watch
 * begins (`cody list` never pays for sockets), then one `EngineLive` for the engine.
 */
import type { EngineLive, EngineLiveOptions } from './engine-live.js';
import type { LiveRun, LiveWatch } from './subscriber.js';

export interface LazyLive {
  /** The engine's channel, loaded the first time; undefined when it has none (ephemeral). */
  load(): Promise<EngineLive | undefined>;
  watch(conversationId: string, onRun: (run: LiveRun) => void): LiveWatch;
  close(): void;
}

/** `options` undefined: no channel (an ephemeral engine's conversations are nobody else's). */
export function lazyLive(options: EngineLiveOptions | undefined): LazyLive {
  let channel: EngineLive | undefined;
  const load = async (): Promise<EngineLive | undefined> => {
    if (options === undefined) return undefined;
    const { EngineLive } = await import('./engine-live.js');
    return (channel ??= new EngineLive(options));
  };
  return {
    load,
    watch: (conversationId, onRun) => {
      let watch: LiveWatch | undefined;
      let stopped = false;
      const ready = load().then(async (loaded) => {
        if (!loaded || stopped) return;
        watch = loaded.watch(conversationId, onRun);
        await watch.ready;
      });
      return {
        ready,
        stop: () => {
          stopped = true;
          watch?.stop();
        },
      };
    },
    close: () => channel?.close(),
  };
}
