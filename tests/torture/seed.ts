/** The bounded torture run's seed: `CODY_TORTURE_SEED` replays another one. */
export const SEED = Number(process.env.CODY_TORTURE_SEED ?? 11);
