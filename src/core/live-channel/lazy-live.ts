/**
 * The live channel as `createCody` holds it: nothing is loaded until a conversation opens or a watch
 * begins (`cody list` never pays for sockets), then one `EngineLive` for the engine. Opening a
 * conversation starts the load without waiting for it, so the channel adds nothing to the time a
 * conversation takes to open (the REPL's prompt).
 */
import type { RunTap, SessionEvent } from '../conversation/index.js';
import type { EngineLive, EngineLiveOptions } from './engine-live.js';
import type { LiveRun, LiveWatch } from './subscriber.js';
import type { LiveRunKind } from './wire.js';

export interface LazyLive {
  /** Starts loading the channel's modules (a conversation opens: its first run will need them). */
  preload(): void;
  /** The tap of a run beginning: publishes its events (held until the channel is loaded, if it is not yet). */
  tap(conversationId: string, kind: LiveRunKind): RunTap | undefined;
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
    preload: () => void load().catch(() => undefined),
    tap: (conversationId, kind) => {
      if (options === undefined) return undefined;
      if (channel) return channel.tap(conversationId, kind);
      return heldTap(load(), conversationId, kind);
    },
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

/** A run's tap while the channel still loads: its events wait, in order, and go to the real tap once it is. */
function heldTap(
  loading: Promise<EngineLive | undefined>,
  conversationId: string,
  kind: LiveRunKind,
): RunTap {
  const held: SessionEvent[] = [];
  let ended = false;
  let dropped = false;
  let inner: RunTap | undefined;
  void loading.then(
    (loaded) => {
      if (loaded) {
        inner = loaded.tap(conversationId, kind);
        for (const event of held) inner.event(event);
        if (ended) inner.end();
      }
      dropped = !loaded;
      held.length = 0;
    },
    () => {
      dropped = true;
      held.length = 0;
    },
  );
  return {
    event: (event) => {
      if (inner) inner.event(event);
      else if (!dropped) held.push(event);
    },
    end: () => {
      ended = true;
      inner?.end();
    },
  };
}
