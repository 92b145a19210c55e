// Starts the built `texto serve` on a free port with a fresh database, for end-to-end tests.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.env.TEXTO_BIN;
const webDir = process.env.TEXTO_WEB_DIR;

/**
 * Runs texto with its demo account (1,000 credits) until `stop()` is called.
 * @param {string[]} extra more `texto serve` flags
 * @param {{ db?: string }} options another database than a fresh SQLite file (a PostgreSQL URL)
 * @returns {Promise<{ url: string, token: string, db: string, stop: () => Promise<void> }>} url is the
 *   base URL, e.g. http://127.0.0.1:41234; token is the demo account's API token; db its database
 */
export async function startTexto(extra = [], options = {}) {
  if (!bin || !webDir) throw new Error("TEXTO_BIN and TEXTO_WEB_DIR must be set (scripts/test sets them)");
  const dir = mkdtempSync(join(tmpdir(), "texto-e2e-"));
  const db = options.db ?? join(dir, "texto.db");
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", db, "--web-dir", webDir, "--demo", "--allow-private-webhooks", ...extra], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let seen = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`texto did not start: ${seen}`)), 20_000);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(/running at (http:\/\/[^\s/]+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`texto exited with ${code}: ${seen}`)));
  });
  const stop = async () => {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const token = seen.match(/(texto_[0-9a-f]+)/)?.[1];
  if (!token) throw new Error(`texto printed no demo token: ${seen}`);
  return { url, token, db, stop };
}
