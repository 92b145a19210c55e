// Loads the texto-core npm package built by `wasm-pack build core --target nodejs` (scripts/test).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The package's exports, as a CommonJS consumer of the published package sees them. */
export const core = require("../../core/pkg-node/texto_core.js");
