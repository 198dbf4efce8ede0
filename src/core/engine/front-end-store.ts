/** Transitional: the store behind a `Cody`, until every front end goes through `Cody` alone. */
import type { Cody } from './cody-api.js';
import type { OpenedStore } from './engine-state.js';
import { CodyError } from '../errors.js';

export type Store = OpenedStore & { draft: Cody['draft'] };

const stores = new WeakMap<object, () => Promise<Store>>();

export function registerStore(cody: object, load: () => Promise<Store>): void {
  stores.set(cody, load);
}

export function storeOf(cody: Cody): Promise<Store> {
  const load = stores.get(cody);
  if (!load) throw new CodyError('Not a Cody created by createCody.', 'internal');
  return load();
}
