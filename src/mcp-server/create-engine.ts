/**
 * `createCody`, in a module of its own so the MCP server can load the engine with `import()` after the
 * handshake; the bundle's door plugin (scripts/bundle-door.js) rewrites this static import to the engine's
 * module, where an `import('../core/index.js')` would load everything the door re-exports.
 */
import { createCody } from '../core/index.js';

export { createCody };
