// Fair sharing: while one account's large campaign is going out, another account's
// small alert does not wait for it: the accounts take turns inside each wave. And an account
// with a throughput limit is handed over at that rate.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir, startTexto, startSimulator, credit, command, send, campaign, finished, until, numbers } from "./texto-process.mjs";

const LARGE = 40_000;
const RATE = 2_000;

test("another account's 10-message alert goes out in its turn, not after the 40,000-message campaign it arrives during", { timeout: 120_000 }, async () => {
  const dir = tempDir();
  // The carrier takes 2,000 messages a second: the large campaign lasts 20 s.
  const texto = await startTexto(dir.db, ["--smsc", `builtin?window=100&rate=${RATE}`, "--builtin-dlr-delay-ms", "50"]);
  try {
    await credit(dir.db, "demo", 100_000);
    await command(dir.db, ["account", "create", "pharmacie", "--credits", "100"]);
    const other = { url: texto.url, token: await command(dir.db, ["token", "create", "--account", "pharmacie"]) };

    const large = await send(texto, numbers("3361", LARGE), "Soldes: -30% ce week-end.");
    assert.equal(large.sent, LARGE, JSON.stringify(large).slice(0, 300));
    await until(async () => (await campaign(texto, large.ticket)).status === "Sending", 10_000, { what: "the large campaign sending" });
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const before = await campaign(texto, large.ticket);
    const sentAt = Date.now();
    const alert = await send(other, numbers("3367", 10), "Votre ordonnance est prête.");
    assert.equal(alert.sent, 10);
    await until(async () => (await campaign(other, alert.ticket)).status === "Sent", 10_000, { intervalMs: 20, what: "the alert handed over" });
    const latency = Date.now() - sentAt;
    const meanwhile = await campaign(texto, large.ticket);
    const passed = before.pending - meanwhile.pending;
    console.log(`10-message alert handed over ${latency} ms after it was sent, while ${passed} of the large campaign's messages went through; ${meanwhile.pending} still to go (${meanwhile.status})`);
    assert.equal(meanwhile.status, "Sending", "the large campaign was still going out");
    // Counted in the large campaign's own messages, which a loaded machine slows as much as
    // the alert (idle, the alert takes about 120 ms; under the whole test run, 1.1 s once):
    // waiting for its turn lets a few waves through (about 300 idle), waiting behind the
    // campaign all of it (over 30,000).
    assert.ok(passed < 2 * RATE, `the alert waited less than two seconds of the carrier's pace (${passed} messages)`);
    assert.ok(latency < 5_000, `the alert went out within 5 s (${latency} ms)`);
  } finally {
    await texto.stop();
    dir.remove();
  }
});

test("an account limited to 100 messages a second stays within 5% of it over 30 s", { timeout: 120_000 }, async () => {
  const dir = tempDir();
  const sim = await startSimulator({ dlrDelayMs: 50 });
  const texto = await startTexto(dir.db, ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=100`]);
  try {
    await credit(dir.db, "demo", 10_000);
    await command(dir.db, ["account", "limit", "demo", "--per-second", "100"]);
    // The running texto reads limits each second; the margin is a loaded machine's.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const sent = await send(texto, numbers("3361", 5_000), "Rappel: rendez-vous demain.");
    assert.equal(sent.sent, 5_000);
    await until(async () => (await sim.status()).received >= 200, 10_000, { what: "sending under way" });
    const start = { at: Date.now(), received: (await sim.status()).received };
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    const end = { at: Date.now(), received: (await sim.status()).received };
    const rate = ((end.received - start.received) * 1000) / (end.at - start.at);
    console.log(`limited to 100 msg/s: ${rate.toFixed(1)} msg/s over ${((end.at - start.at) / 1000).toFixed(1)} s`);
    assert.ok(Math.abs(rate - 100) <= 5, `within 5% of 100 msg/s (${rate.toFixed(1)})`);
    await command(dir.db, ["account", "limit", "demo"]);
    await finished(texto, sent.ticket, 30_000, "without the limit, the rest goes at once");
  } finally {
    await texto.stop();
    await sim.stop();
    dir.remove();
  }
});
