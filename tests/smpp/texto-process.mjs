// Helpers shared by the SMPP end-to-end tests: the built `texto` binary run as `serve` (on a
// database kept between restarts), as `smsc-simulator`, and as `account credit`; JSON calls to
// texto's API; and polling.
import { spawn, execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const bin = process.env.TEXTO_BIN;
const webDir = process.env.TEXTO_WEB_DIR ?? "dist";
/** No ANSI colours in texto's logs, so they can be matched. */
const env = { ...process.env, NO_COLOR: "1" };
const ansi = /\x1b\[[0-9;]*m/g;

function needBinary() {
  if (!bin) throw new Error("TEXTO_BIN must be set (scripts/test sets it)");
}

/** A fresh directory for a database; `remove()` deletes it. */
export function tempDir(prefix = "texto-smpp-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, db: join(dir, "texto.db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns `args` and resolves once stdout matches `ready`. Keeps stdout and stderr (ANSI
 * stripped) and offers stop() (SIGTERM, waits for exit) and kill9() (SIGKILL, waits for exit),
 * each resolving with the exit code (or signal name).
 */
async function run(args, ready, what) {
  needBinary();
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], env });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk) => (out.stdout += chunk));
  child.stderr.on("data", (chunk) => (out.stderr += String(chunk).replace(ansi, "")));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  const match = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start:\n${out.stdout}\n${out.stderr}`)), 20_000);
    const check = () => {
      const found = out.stdout.match(ready);
      if (found) {
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve(found);
      }
    };
    child.stdout.on("data", check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${out.stdout}\n${out.stderr}`));
    });
  });
  const end = async (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return {
    match,
    child,
    exited,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    stop: () => end("SIGTERM"),
    kill9: () => end("SIGKILL"),
  };
}

/**
 * `texto serve --demo` on `db` (created on first start, reused on a restart) on a free port.
 * @param {string} db the SQLite file
 * @param {string[]} extra more `serve` flags (e.g. `--smsc smpp://…`)
 * @returns {Promise<{url: string, token: string | undefined, child, stdout: () => string,
 *   stderr: () => string, stop: () => Promise<number|string>, kill9: () => Promise<number|string>}>}
 *   url is the base URL (http://127.0.0.1:PORT); token is the demo token, printed on first start only
 */
export async function startTexto(db, extra = []) {
  const args = ["serve", "--addr", "127.0.0.1:0", "--db", db, "--web-dir", webDir, "--demo", "--allow-private-webhooks", ...extra];
  const texto = await run(args, /running at (http:\/\/[^\s/]+)/, "texto serve");
  return { ...texto, url: texto.match[1], token: texto.stdout().match(/(texto_[0-9a-f]+)/)?.[1] };
}

/**
 * `texto smsc-simulator` on free ports, binds accepted for texto/`password`.
 * @returns smppAddr (HOST:PORT), httpUrl, and status(), messages(query), outage(seconds, mode)
 */
export async function startSimulator({ dlrDelayMs = 50, systemId = "texto", password = "secret" } = {}) {
  const args = ["smsc-simulator", "--smpp-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--system-id", systemId, "--password", password, "--dlr-delay-ms", String(dlrDelayMs)];
  const sim = await run(args, /SMPP on (\S+), HTTP on (http:\/\/\S+)/, "the SMSC simulator");
  const httpUrl = sim.match[2];
  const get = async (path) => {
    const response = await fetch(`${httpUrl}${path}`);
    if (!response.ok) throw new Error(`simulator GET ${path}: ${response.status}`);
    return response.json();
  };
  return {
    ...sim,
    smppAddr: sim.match[1],
    httpUrl,
    /** `{binds, undelivered, received}` */
    status: () => get("/status"),
    /** The messages list (newest first, whole messages). */
    messages: async (query = "") => (await get(`/messages?${query}`)).messages,
    outage: async (seconds, mode) => {
      const response = await fetch(`${httpUrl}/outage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seconds, mode }) });
      if (!response.ok) throw new Error(`simulator POST /outage: ${response.status}`);
      return response.json();
    },
  };
}

/** `texto account credit NAME AMOUNT --db DB`; resolves with what it printed. */
export function credit(db, name, amount) {
  needBinary();
  return new Promise((resolve, reject) => {
    execFile(bin, ["account", "credit", name, String(amount), "--db", db], { env }, (error, stdout, stderr) =>
      error ? reject(new Error(`texto account credit failed: ${stderr || error.message}`)) : resolve(stdout.trim()),
    );
  });
}

/** `texto ARGS… --db DB` (an operator's command); resolves with what it printed. */
export function command(db, args) {
  needBinary();
  return new Promise((resolve, reject) => {
    execFile(bin, [...args, "--db", db], { env }, (error, stdout, stderr) =>
      error ? reject(new Error(`texto ${args.join(" ")} failed: ${stderr || error.message}`)) : resolve(stdout.trim()),
    );
  });
}

/**
 * A JSON call to texto's API as `token`; throws on a non-2xx answer.
 * @param {{url: string, token: string}} texto
 */
export async function api(texto, path, { method = "GET", body } = {}) {
  const response = await fetch(`${texto.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${texto.token}`, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** `POST /send` of `text` to `numbers`; returns the answer (with its ticket). */
export function send(texto, numbers, text, { sender, pushtype = "alert" } = {}) {
  const message = { text, pushtype, ...(sender ? { sender } : {}) };
  return api(texto, "/send", { method: "POST", body: { sms: { message, recipients: { gsm: numbers.map((value) => ({ value })) } } } });
}

/** The campaign's statistics (`campaign[0]` of `GET /campaign/{ticket}`). */
export async function campaign(texto, ticket) {
  return (await api(texto, `/campaign/${ticket}`)).campaign[0];
}

/** Waits until the campaign is `Sent` with no receipt pending; resolves with its detail. */
export function finished(texto, ticket, timeoutMs, what) {
  return until(
    async () => {
      const c = await campaign(texto, ticket);
      return c.pending === 0 && c.status === "Sent" && c;
    },
    timeoutMs,
    { intervalMs: 1000, what },
  );
}

/** The account's balance as a number. */
export async function credits(texto) {
  return Number((await api(texto, "/credits")).credits);
}

/**
 * Calls `probe` every `intervalMs` until it returns a truthy value, which it resolves with;
 * rejects after `timeoutMs` naming `what` and the last value seen.
 */
export async function until(probe, timeoutMs, { intervalMs = 200, what = "the condition" } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await sleep(intervalMs);
  }
}

/**
 * The counts a finished campaign shows (delivered, error, expired, npai), and those the
 * simulator's suffix rule gives `numbers`: each number has exactly one final outcome.
 */
export function outcomes(campaign, numbers) {
  return {
    seen: { delivered: campaign.delivered, error: campaign.error, expired: campaign.expired, npai: campaign.npai },
    expected: expectedOutcomes(numbers),
  };
}

/** The counts the simulator gives `numbers`, by their last two digits (docs/interface.md §6.5). */
function expectedOutcomes(numbers) {
  const counts = { delivered: 0, error: 0, expired: 0, npai: 0 };
  for (const number of numbers) {
    const suffix = number.slice(-2);
    if (suffix === "00") counts.npai += 1;
    else if (suffix === "99" || suffix === "97") counts.error += 1;
    else if (suffix === "98") counts.expired += 1;
    else counts.delivered += 1;
  }
  return counts;
}

/** `count` distinct French mobile numbers: `prefix` (e.g. "3361") then 7 digits, from 1. */
export function numbers(prefix, count) {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(11 - prefix.length, "0")}`);
}
