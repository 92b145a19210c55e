// Crash safety of journeys: texto killed with SIGKILL while a journey's runner welcomes 30,000
// joiners of a list, then started again on the same database. Every joiner's step is done
// once (the report counts each once, and each waits once at the next step), every joiner gets
// the welcome, and at most one batch and one window get it twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir, startTexto, startSimulator, credit, api, until, numbers } from "./texto-process.mjs";

const JOINERS = 30_000;
const WINDOW = 50; // one bind
const BATCH = 2000; // the contacts the runner claims at once (server/src/journeys/runner.rs)
const KILL_AT = 2_000; // contacts past the welcome

test("kill -9 while a journey welcomes 30,000 joiners: each step done once, every joiner welcomed", { timeout: 420_000 }, async () => {
  const dir = tempDir();
  const sim = await startSimulator({ dlrDelayMs: 100 });
  const smsc = ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=${WINDOW}`];
  let texto = await startTexto(dir.db, smsc);
  const token = texto.token;
  try {
    assert.ok(token, "texto printed the demo token on first start");
    await credit(dir.db, "demo", 100_000);
    const list = await api(texto, "/list", { method: "POST", body: { list: { name: "Club" } } });
    const steps = [{ type: "send", text: "Bienvenue au club !" }, { type: "wait", duration: "1d" }];
    const saved = await api(texto, "/journey", { method: "POST", body: { journey: { name: "Bienvenue", trigger: { type: "list", list: list.id }, steps } } });
    const id = saved.journey.id;
    await api(texto, `/journey/${id}/status`, { method: "PUT", body: { journey: { status: "live" } } });
    const joiners = numbers("3363", JOINERS);
    await api(texto, `/list/${list.id}`, { method: "PUT", body: { list: { contacts: { gsm: joiners.map((value) => ({ value })) } } } });

    const report = async () => api(texto, `/journey/${id}/report`);
    const welcomed = async () => (await report()).steps[0].done;
    await until(async () => (await welcomed()) >= KILL_AT, 180_000, { intervalMs: 50, what: `${KILL_AT} joiners past the welcome` });
    assert.equal(await texto.kill9(), "SIGKILL");

    texto = await startTexto(dir.db, smsc);
    texto.token = token;
    const atRestart = await welcomed();
    assert.ok(atRestart < JOINERS, `texto was killed before the end (${atRestart} welcomed)`);
    const done = await until(async () => {
      const counts = await report();
      return counts.steps[0].done === JOINERS && counts;
    }, 240_000, { intervalMs: 1000, what: "every joiner past the welcome after the restart" });
    assert.equal(done.entered, JOINERS, "each joiner entered once");
    assert.deepEqual([done.steps[0].entered, done.steps[1].entered, done.steps[1].waiting], [JOINERS, JOINERS, JOINERS], "each step reached once");
    const log = texto.stderr().replace(/\x1b\[[0-9;]*m/g, "");
    const released = log.match(/journey steps were claimed when texto stopped.*released=(\d+)/)?.[1] ?? 0;

    // The welcomes sent twice count among those received, so a count of JOINERS can come before
    // the last joiners' welcomes: wait for a welcome to each joiner, not for a count. The list
    // of messages is read only once the count says every welcome may be there.
    const messages = await until(async () => {
      if ((await sim.status()).received < JOINERS) return false;
      const all = await sim.messages(`limit=${2 * JOINERS}`);
      return new Set(all.map((m) => m.destination_addr)).size === JOINERS && all;
    }, 240_000, { intervalMs: 1000, what: "a welcome at the simulator for every joiner" });
    const received = new Set(messages.map((m) => m.destination_addr));
    assert.equal(received.size, JOINERS, "every joiner welcomed");
    const duplicates = messages.length - JOINERS;
    console.log(`welcomed at restart ${atRestart}, claims let go at restart ${released}, welcomes twice ${duplicates}`);
    assert.ok(duplicates <= BATCH + WINDOW, `${duplicates} welcomes twice ≤ a batch and a window`);
  } finally {
    await texto.stop();
    await sim.stop();
    dir.remove();
  }
});
