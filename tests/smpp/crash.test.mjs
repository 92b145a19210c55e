// Crash safety of delivery: texto killed with SIGKILL in the middle of a large campaign, then
// started again on the same database, against the standalone SMSC simulator.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir, startTexto, startSimulator, credit, send, finished, credits, until, numbers, outcomes } from "./texto-process.mjs";

const RECIPIENTS = 100_000;
const WINDOW = 50; // one bind
const KILL_AT = 20_000;

/**
 * Protects the hand-over bookkeeping: a wave is marked in flight in the same write that stores
 * the previous wave's outcomes, so a crash re-sends at most one wave (binds × window), loses
 * nothing, never debits twice, and every receipt still finds its message.
 */
test("kill -9 during a 100,000-recipient campaign: every number reached, at most one window twice, credits debited once", { timeout: 420_000 }, async () => {
  const dir = tempDir();
  const sim = await startSimulator({ dlrDelayMs: 200 });
  const smsc = ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=${WINDOW}`];
  let texto = await startTexto(dir.db, smsc);
  const token = texto.token;
  const timings = {};
  try {
    assert.ok(token, "texto printed the demo token on first start");
    await credit(dir.db, "demo", 200_000);
    const before = await credits(texto);
    assert.equal(before, 201_000);

    const list = numbers("3361", RECIPIENTS);
    let start = Date.now();
    const answer = await send(texto, list, "Votre commande est prete: retrait en magasin des demain.");
    timings.send = Date.now() - start;
    assert.equal(answer.status, 1, JSON.stringify(answer).slice(0, 500));
    assert.equal(Number(answer.sent), RECIPIENTS);
    assert.equal(await credits(texto), before - RECIPIENTS, "debited when accepted");

    start = Date.now();
    await until(async () => (await sim.status()).received >= KILL_AT, 180_000, { intervalMs: 50, what: `${KILL_AT} messages at the simulator` });
    timings.toKill = Date.now() - start;
    assert.equal(await texto.kill9(), "SIGKILL");
    const atKill = (await sim.status()).received;
    assert.ok(atKill < RECIPIENTS, `texto was killed before the end (${atKill} received)`);

    texto = await startTexto(dir.db, smsc);
    assert.equal(texto.token, undefined, "no new demo token on a restart");
    texto.token = token;
    start = Date.now();
    const done = await finished(texto, answer.ticket, 240_000, "campaign finished after the restart");
    timings.afterRestart = Date.now() - start;

    const messages = await sim.messages(`limit=${2 * RECIPIENTS}`);
    const received = new Set(messages.map((m) => m.destination_addr));
    assert.equal(received.size, RECIPIENTS, "every destination reached");
    assert.ok(list.every((n) => received.has(n)), "exactly our destinations");
    const duplicates = messages.length - RECIPIENTS;
    const requeueLine = texto.stderr().match(/.*messages were in flight when texto stopped.*/)?.[0] ?? "";
    const requeued = Number(requeueLine.match(/requeued=(\d+)/)?.[1] ?? 0);
    console.log(`received at kill ${atKill}, duplicates ${duplicates}, timings ${JSON.stringify(timings)}\n${requeueLine}`);
    assert.ok(duplicates >= 0 && duplicates <= WINDOW, `duplicates ${duplicates} ≤ binds × window`);
    if (duplicates > 0) {
      assert.ok(requeued >= duplicates, `the restart logged the requeue (requeued=${requeued}):\n${texto.stderr().slice(0, 3000)}`);
    }
    assert.ok(requeued <= WINDOW, `requeued ${requeued} ≤ binds × window`);

    assert.equal(await credits(texto), before - RECIPIENTS, "debited once, crash or not");
    const { seen, expected } = outcomes(done, list);
    assert.deepEqual(seen, expected);
    assert.equal(seen.delivered + seen.error + seen.expired + seen.npai, RECIPIENTS);
  } finally {
    await texto.stop();
    await sim.stop();
    dir.remove();
  }
});
