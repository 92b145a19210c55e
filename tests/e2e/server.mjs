// Starts the built `texto serve` on a free port with a fresh database, for end-to-end tests.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.env.TEXTO_BIN;
const webDir = process.env.TEXTO_WEB_DIR;

/**
 * Runs texto until `stop()` is called.
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>} url is the base URL, e.g. http://127.0.0.1:41234
 */
export async function startTexto() {
  if (!bin || !webDir) throw new Error("TEXTO_BIN and TEXTO_WEB_DIR must be set (scripts/test sets them)");
  const dir = mkdtempSync(join(tmpdir(), "texto-e2e-"));
  const child = spawn(bin, ["serve", "--addr", "127.0.0.1:0", "--db", join(dir, "texto.db"), "--web-dir", webDir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
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
  return { url, stop };
}
