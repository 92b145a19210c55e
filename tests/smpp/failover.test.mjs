// Two carriers and routes: France goes to connector A (texto's SMSC simulator) then B
// (npm's node-smpp SMSC, over TLS), Belgium to B. A is cut for 30 s in the middle of a campaign:
// its traffic must be on B within 5 s, every number reached, duplicates no more than A's window;
// once A is bound again, new French traffic goes to A.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tempDir, startTexto, startSimulator, credit, command, send, finished, until, numbers, outcomes } from "./texto-process.mjs";
import { startNodeSmsc, loopbackCertificate } from "./node-smsc.mjs";
import { basename, dirname } from "node:path";

const FRENCH = 3_000;
const BELGIAN = 200;
const OUTAGE_AT = 500;
const OUTAGE_SECONDS = 30;
const WINDOW = 50;

test("connector A cut for 30 s: its French traffic fails over to B within 5 s, nothing lost, and comes back to A", { timeout: 180_000 }, async () => {
  const dir = tempDir();
  const certificate = loopbackCertificate();
  const a = await startSimulator({ dlrDelayMs: 50 });
  const b = await startNodeSmsc({ tls: certificate });
  // ca= names a file in the folder texto is given with --ca-dir (the node and the command alike).
  const caDir = ["--ca-dir", dirname(certificate.caFile)];
  const texto = await startTexto(dir.db, caDir);
  try {
    await credit(dir.db, "demo", 10_000);
    // rate=300 on A: 10 s of sending, so the cut falls well inside the campaign.
    await command(dir.db, ["connector", "add", "A", `smpp://texto:secret@${a.smppAddr}?window=${WINDOW}&rate=300`]);
    // B's certificate comes from a private authority: checked against Mozilla's authorities,
    // TLS refuses it and the connector says why; with that authority's file (ca=, in --ca-dir), B binds.
    await command(dir.db, ["connector", "add", "B", `smpps://texto:secret@${b.smppAddr}?window=${WINDOW}`]);
    const refused = await until(async () => {
      const list = await command(dir.db, ["connector", "list"]);
      return /^B\s+local\s+down.*TLS.*(certificate|issuer)/im.test(list) && list;
    }, 10_000, { what: "B down with a TLS certificate error" });
    assert.doesNotMatch(refused, /^B\s+local\s+up/m);
    assert.equal((await b.status()).sessions, 0, "no SMPP session over an unchecked TLS");
    await command(dir.db, ["connector", "add", "B", `smpps://texto:secret@${b.smppAddr}?window=${WINDOW}&ca=${basename(certificate.caFile)}`, ...caDir]);
    await command(dir.db, ["route", "add", "--connectors", "A,B", "--country", "FR"]);
    await command(dir.db, ["route", "add", "--connectors", "B", "--prefix", "32"]);
    const routes = await command(dir.db, ["route", "list"]);
    assert.match(routes, /FR .* A → B/);
    // The running texto picks both connectors up within a second, without a restart.
    await until(async () => (await a.status()).binds === 1 && (await b.status()).binds === 1, 10_000, { what: "texto bound to A and B" });
    const listed = await until(async () => {
      const list = await command(dir.db, ["connector", "list"]);
      return /^A\s+local\s+up/m.test(list) && /^B\s+local\s+up/m.test(list) && list;
    }, 10_000, { what: "connector list shows A and B up" });
    assert.match(listed, /^default\s+local\s+up/m);

    const belgian = numbers("3247", BELGIAN);
    const sentBe = await send(texto, belgian, "Alerte: coupure d'eau demain matin.");
    await finished(texto, sentBe.ticket, 30_000, "the Belgian campaign finished");
    assert.equal((await b.status()).received, BELGIAN, "Belgium went to B");
    assert.equal((await a.status()).received, 0, "and none of it to A");

    const french = numbers("3361", FRENCH);
    const sentFr = await send(texto, french, "Alerte meteo: vents forts cette nuit, restez prudents.");
    assert.equal(sentFr.status, 1, JSON.stringify(sentFr).slice(0, 300));
    await until(async () => (await a.status()).received >= OUTAGE_AT, 60_000, { intervalMs: 20, what: `${OUTAGE_AT} messages at A` });
    assert.equal((await b.status()).received, BELGIAN, "France goes to A while it is up");
    await a.outage(OUTAGE_SECONDS, "disconnect");
    const cutAt = Date.now();
    await until(async () => (await b.status()).received > BELGIAN, 10_000, { intervalMs: 20, what: "French traffic at B" });
    const failover = Date.now() - cutAt;

    const done = await finished(texto, sentFr.ticket, 90_000, "the French campaign finished through B");
    const atA = (await a.messages(`limit=${2 * FRENCH}`)).map((m) => m.destination_addr).filter((n) => n.startsWith("33"));
    const atB = (await b.messages()).filter((n) => n.startsWith("33"));
    const reached = new Set([...atA, ...atB]);
    const duplicates = atA.length + atB.length - FRENCH;
    console.log(`failover ${failover} ms; A took ${atA.length}, B took ${atB.length}; ${duplicates} duplicates`);
    assert.ok(failover <= 5_000, `failover within 5 s (${failover} ms)`);
    assert.equal(reached.size, FRENCH, "every French number reached");
    assert.ok(duplicates <= WINDOW, `duplicates no more than the window (${duplicates})`);
    const { seen, expected } = outcomes(done, french);
    assert.deepEqual(seen, expected, "every receipt matched, from either SMSC");

    // A comes back: new French traffic goes to A again.
    await until(async () => (await a.status()).binds === 1, 60_000, { intervalMs: 250, what: "A bound again after the outage" });
    const backAtA = (await a.status()).received;
    const atBBefore = (await b.status()).received;
    const again = numbers("3362", 100);
    const sentAgain = await send(texto, again, "Vents forts: fin de l'alerte.");
    await finished(texto, sentAgain.ticket, 30_000, "the campaign after the outage finished");
    assert.equal((await a.status()).received - backAtA, 100, "A carries France again");
    assert.equal((await b.status()).received, atBBefore, "and B none of it");
  } finally {
    await texto.stop();
    await a.stop();
    await b.stop();
    certificate.remove();
    dir.remove();
  }
});
