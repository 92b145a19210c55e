// Crash safety of webhook deliveries: texto killed with SIGKILL while 10,000 DLR events wait for
// a receiver, then started again on the same database (standalone SMSC simulator, so that the
// receipts survive the kill).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { tempDir, startTexto, startSimulator, credit, send, api, until, numbers } from "./texto-process.mjs";

const EVENTS = 10_000;
const KILL_AT = 2_000;

/**
 * Protects "nothing lost, nothing sent twice without the same delivery id": every event reaches
 * the receiver after the restart, and an event posted twice carries one X-Service-Delivery.
 */
test("kill -9 with 10,000 webhook events pending: every event delivered, repeats only with their delivery id", { timeout: 300_000 }, async () => {
  const byDestination = new Map(); // destination → delivery ids received
  let posts = 0;
  const receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      posts += 1;
      const destination = JSON.parse(body).destination;
      const ids = byDestination.get(destination) ?? [];
      ids.push(request.headers["x-service-delivery"]);
      byDestination.set(destination, ids);
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const dir = tempDir();
  const sim = await startSimulator({ dlrDelayMs: 100 });
  const smsc = ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=200`];
  let texto = await startTexto(dir.db, smsc);
  const token = texto.token;
  try {
    await credit(dir.db, "demo", 20_000);
    await api(texto, "/webhook", { method: "POST", body: { webhook: { type: "DLR", url: `http://127.0.0.1:${receiver.address().port}/dlr`, signature: "k" } } });
    await send(texto, numbers("3364", EVENTS), "Votre colis arrive demain.");
    await until(() => posts >= KILL_AT, 120_000, { intervalMs: 20, what: `${KILL_AT} events at the receiver` });
    assert.equal(await texto.kill9(), "SIGKILL");
    const atKill = posts;
    assert.ok(byDestination.size < EVENTS, `killed before the end (${atKill} posted)`);

    texto = await startTexto(dir.db, smsc);
    texto.token = token;
    await until(() => byDestination.size === EVENTS, 240_000, { intervalMs: 500, what: "every event at the receiver" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const repeated = [...byDestination.values()].filter((ids) => ids.length > 1);
    console.log(`posted ${posts} for ${EVENTS} events (${atKill} before the kill); ${repeated.length} posted twice`);
    assert.ok(repeated.every((ids) => new Set(ids).size === 1), "an event posted again carries the same delivery id");
    assert.ok(repeated.length <= 64, `at most the attempts in flight are repeated (${repeated.length})`);
  } finally {
    await texto.stop().catch(() => {});
    await sim.stop();
    receiver.close();
    dir.remove();
  }
});
