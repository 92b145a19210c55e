// An SMSC outage in the middle of a campaign: the standalone simulator drops texto's bind and
// refuses connections for 30 s; texto must wait, bind again and finish.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir, startTexto, startSimulator, credit, send, finished, until, numbers, outcomes } from "./texto-process.mjs";

const RECIPIENTS = 5_000;
const OUTAGE_AT = 1_000;
const OUTAGE_SECONDS = 30;

/**
 * Protects the reconnection path: submits cut off by a dropped link and those waiting for a bind
 * are tried again later (never failed), texto binds again after the outage (backoff up to 30 s),
 * and receipts the SMSC held meanwhile still arrive.
 */
test("a 30 s disconnect outage after 1,000 of 5,000 messages: texto binds again and every number is reached", { timeout: 150_000 }, async () => {
  const dir = tempDir();
  const sim = await startSimulator({ dlrDelayMs: 50 });
  // rate=500: about 10 s of sending, so the outage falls well inside the campaign.
  const texto = await startTexto(dir.db, ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=50&rate=500`]);
  try {
    await credit(dir.db, "demo", 10_000);
    const list = numbers("3362", RECIPIENTS);
    const sentAt = Date.now();
    const answer = await send(texto, list, "Alerte meteo: vents forts cette nuit, restez prudents.");
    assert.equal(answer.status, 1, JSON.stringify(answer).slice(0, 500));

    await until(async () => (await sim.status()).received >= OUTAGE_AT, 60_000, { intervalMs: 20, what: `${OUTAGE_AT} messages at the simulator` });
    await sim.outage(OUTAGE_SECONDS, "disconnect");
    const outageAt = Date.now();
    const toOutage = outageAt - sentAt;
    const atOutage = (await sim.status()).received;
    assert.ok(atOutage < RECIPIENTS, `the outage began before the end (${atOutage} received)`);
    await until(async () => (await sim.status()).binds === 0, 5_000, { intervalMs: 50, what: "the bind dropped" });

    const done = await finished(texto, answer.ticket, 110_000, "campaign finished after the outage");
    const finishedAfter = Date.now() - outageAt;
    const status = await sim.status();
    const messages = await sim.messages(`limit=${2 * RECIPIENTS}`);
    const received = new Set(messages.map((m) => m.destination_addr));
    console.log(`received at outage ${atOutage} (${toOutage} ms after the send), finished ${finishedAfter} ms after it, ${messages.length - RECIPIENTS} duplicates, simulator ${JSON.stringify(status)}`);
    assert.ok(finishedAfter >= OUTAGE_SECONDS * 1000, "the rest went out after the outage");
    assert.equal(status.binds, 1, "bound again");
    assert.equal(received.size, RECIPIENTS, "every destination reached");
    assert.ok(messages.length - RECIPIENTS <= 50, "only submits in flight when the link dropped go twice (window 50)");
    assert.ok(list.every((n) => received.has(n)));
    const { seen, expected } = outcomes(done, list);
    assert.deepEqual(seen, expected);
    assert.equal(seen.delivered + seen.error + seen.expired + seen.npai, RECIPIENTS);
  } finally {
    await texto.stop();
    await sim.stop();
    dir.remove();
  }
});
