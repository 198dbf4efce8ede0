/**
 * The live channel: a turn running in any Cody process publishes its events on a private socket, and
 * another process (`cody serve`) watches for it and replays the turn from its start.
 * This file is the folder's public surface: other folders import it, never its modules (eslint.config.js).
 */
export { lazyLive } from './lazy-live.js';
export type { LazyLive } from './lazy-live.js';
export type { EngineLiveOptions } from './engine-live.js';
export type { LiveRun, LiveWatch } from './subscriber.js';
export type { LiveRunKind } from './wire.js';
