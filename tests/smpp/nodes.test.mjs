// Several texto nodes on one PostgreSQL: a throw-away cluster started here
// (scripts/postgres: Debian's postgresql, as the postgres user, on a free port), three
// `texto serve` on it, and the standalone SMSC simulator counting what reaches it; and two nodes
// failing over between two connectors.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tempDir, startTexto, startSimulator, credit, command, send, finished, credits, until, numbers, outcomes, api } from "./texto-process.mjs";

const run = promisify(execFile);
const script = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "scripts", "postgres");
const RECIPIENTS = 100_000;
const WINDOW = 50;

const folder = tempDir("texto-pg-");
const cluster = join(folder.dir, "cluster");
let server; // postgres://…/postgres

before(async () => {
  server = (await run(script, ["start", cluster])).stdout.trim();
});

after(async () => {
  await run(script, ["stop", cluster]).catch(() => {});
  folder.remove();
});

/** A new database on the cluster; its URL. */
let databases = 0;
async function database() {
  const name = `texto_nodes_${++databases}`;
  await run("psql", [server, "-qc", `CREATE DATABASE ${name}`]);
  return server.replace(/\/[^/]*$/, `/${name}`);
}

/** `count` nodes on `db`; the first creates the demo account, whose token all use. */
async function nodes(db, count, extra = []) {
  const first = await startTexto(db, extra);
  assert.ok(first.token, "the first node printed the demo token");
  const rest = [];
  for (let i = 1; i < count; i += 1) rest.push({ ...(await startTexto(db, extra)), token: first.token });
  return [first, ...rest];
}

test("100 concurrent sends spread over three nodes never overdraw the account", { timeout: 120_000 }, async () => {
  const db = await database();
  const all = await nodes(db, 3, ["--smsc", "builtin"]);
  try {
    assert.equal(await credits(all[0]), 1000);
    // 100 sends of 20 recipients (20 credits each) for 1,000 credits: exactly 50 can pass.
    const answers = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => send(all[i % 3], numbers(`3367${String(i).padStart(2, "0")}`, 20), "Vente privee ce soir")),
    );
    const accepted = answers.filter((a) => a.status === "fulfilled").length;
    const refused = answers.filter((a) => a.status === "rejected" && /: 402 /.test(a.reason.message)).length;
    assert.deepEqual({ accepted, refused }, { accepted: 50, refused: 50 }, answers.find((a) => a.status === "rejected")?.reason?.message);
    for (const node of all) assert.equal(await credits(node), 0, "every node reads the same balance");
  } finally {
    await Promise.all(all.map((node) => node.stop()));
  }
});

test("anti-flood holds across nodes: 12 identical texts at once to one number over three nodes, 6 go out", { timeout: 120_000 }, async () => {
  const db = await database();
  const all = await nodes(db, 3, ["--smsc", "builtin"]);
  try {
    // docs/interface.md §3.3: at most 6 identical texts per number and rolling hour. A send that meets a
    // concurrent one on another node is answered 503 (-11, Retry-After) and sent again.
    const attempt = async (i) => {
      for (let tries = 0; ; tries += 1) {
        try {
          return await send(all[i % 3], ["33699887766"], "Code promo: HIVER");
        } catch (error) {
          if (!/: 503 /.test(error.message) || tries > 20) throw error;
        }
      }
    };
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(i)));
    const sent = answers.reduce((sum, a) => sum + Number(a.sent), 0);
    const flood = answers.reduce((sum, a) => sum + Number(a.flood), 0);
    assert.deepEqual({ sent, flood }, { sent: 6, flood: 6 });
    // And one more, sequentially, on each node: filtered everywhere. A node whose view of the
    // window is a moment old may answer 503 first, as above; its retry is filtered.
    for (let i = 0; i < all.length; i += 1) assert.equal(Number((await attempt(i)).flood), 1);
  } finally {
    await Promise.all(all.map((node) => node.stop()));
  }
});

test("three nodes hand a 100,000-recipient campaign over once; after kill -9 of one, the others finish its work", { timeout: 600_000 }, async () => {
  const db = await database();
  const sim = await startSimulator({ dlrDelayMs: 100 });
  const smsc = ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=${WINDOW}`];
  const all = await nodes(db, 3, smsc);
  const timings = {};
  try {
    await credit(db, "demo", 200_000);
    await until(async () => (await sim.status()).binds >= 3, 20_000, { what: "three binds at the simulator" });
    const list = numbers("3362", RECIPIENTS);
    let start = Date.now();
    const answer = await send(all[0], list, "Votre colis arrive demain entre 9h et 13h.");
    timings.send = Date.now() - start;
    assert.equal(Number(answer.sent), RECIPIENTS);

    start = Date.now();
    await until(async () => (await sim.status()).received >= 20_000, 240_000, { intervalMs: 50, what: "20,000 messages at the simulator" });
    assert.equal(await all[1].kill9(), "SIGKILL");
    const atKill = (await sim.status()).received;
    const done = await finished(all[0], answer.ticket, 420_000, "the campaign finished by the two live nodes");
    timings.dispatch = Date.now() - start;

    const messages = await sim.messages(`limit=${2 * RECIPIENTS}`);
    const received = new Set(messages.map((m) => m.destination_addr));
    const duplicates = messages.length - RECIPIENTS;
    console.log(`received at the kill ${atKill}, duplicates ${duplicates}, timings ${JSON.stringify(timings)}`);
    assert.equal(received.size, RECIPIENTS, "every destination reached");
    assert.ok(duplicates >= 0 && duplicates <= WINDOW, `duplicates ${duplicates} ≤ the dead node's window`);
    const { seen, expected } = outcomes(done, list);
    assert.deepEqual(seen, expected);
    assert.equal(await credits(all[2]), 201_000 - RECIPIENTS, "debited once");
    const stats = await api(all[2], `/campaign/${answer.ticket}`);
    assert.equal(stats.campaign[0].status, "Sent", "every node sees the same campaign");
  } finally {
    await Promise.all([all[0].stop(), all[2].stop(), sim.stop()]);
  }
});

test("two nodes route France to connector A then B: A cut for 30 s, both nodes fail over within 5 s, nothing lost", { timeout: 180_000 }, async () => {
  const db = await database();
  const a = await startSimulator({ dlrDelayMs: 50 });
  const b = await startSimulator({ dlrDelayMs: 50 });
  // Connectors and routes live in the database: written before the nodes start, or after, alike.
  await command(db, ["connector", "add", "A", `smpp://texto:secret@${a.smppAddr}?window=${WINDOW}&rate=150`]);
  await command(db, ["connector", "add", "B", `smpp://texto:secret@${b.smppAddr}?window=${WINDOW}`]);
  await command(db, ["route", "add", "--connectors", "A,B", "--country", "FR"]);
  const all = await nodes(db, 2, ["--smsc", "builtin"]);
  try {
    await credit(db, "demo", 10_000);
    await until(async () => (await a.status()).binds === 2 && (await b.status()).binds === 2, 20_000, { what: "both nodes bound to A and B" });
    const french = numbers("3361", 3_000);
    const answer = await send(all[0], french, "Alerte: coupure de courant prevue demain.");
    assert.equal(Number(answer.sent), 3_000);
    await until(async () => (await a.status()).received >= 500, 60_000, { intervalMs: 20, what: "500 messages at A" });
    await a.outage(30, "disconnect");
    const cutAt = Date.now();
    const atB = (await b.status()).received;
    await until(async () => (await b.status()).received > atB, 10_000, { intervalMs: 20, what: "French traffic at B" });
    const failover = Date.now() - cutAt;
    const done = await finished(all[1], answer.ticket, 90_000, "the campaign finished through B");
    const reached = [...(await a.messages("limit=10000")), ...(await b.messages("limit=10000"))].map((m) => m.destination_addr);
    const duplicates = reached.length - french.length;
    console.log(`two nodes: failover ${failover} ms, ${duplicates} duplicates`);
    assert.ok(failover <= 5_000, `failover within 5 s (${failover} ms)`);
    assert.equal(new Set(reached).size, french.length, "every number reached");
    assert.ok(duplicates <= 2 * WINDOW, `duplicates ${duplicates} ≤ the two nodes' windows at A`);
    const { seen, expected } = outcomes(done, french);
    assert.deepEqual(seen, expected, "every receipt matched, from either SMSC, on either node");
  } finally {
    await Promise.all([...all.map((node) => node.stop()), a.stop(), b.stop()]);
  }
});

test("two nodes run a journey for 20,000 joiners; one is killed -9 mid-run: each step done once, every joiner welcomed", { timeout: 300_000 }, async () => {
  const JOINERS = 20_000;
  const BATCH = 500; // the contacts a runner claims at once (server/src/journeys/runner.rs)
  const db = await database();
  const sim = await startSimulator({ dlrDelayMs: 100 });
  const smsc = ["--smsc", `smpp://texto:secret@${sim.smppAddr}?window=${WINDOW}`];
  const [survivor, victim] = await nodes(db, 2, smsc);
  try {
    await credit(db, "demo", 100_000);
    const list = await api(survivor, "/list", { method: "POST", body: { list: { name: "Club" } } });
    const steps = [{ type: "send", text: "Bienvenue au club !" }, { type: "wait", duration: "1d" }];
    const saved = await api(survivor, "/journey", { method: "POST", body: { journey: { name: "Bienvenue", trigger: { type: "list", list: list.id }, steps } } });
    const id = saved.journey.id;
    await api(survivor, `/journey/${id}/status`, { method: "PUT", body: { journey: { status: "live" } } });
    const joiners = numbers("3364", JOINERS);
    await api(victim, `/list/${list.id}`, { method: "PUT", body: { list: { contacts: { gsm: joiners.map((value) => ({ value })) } } } });
    const report = async () => api(survivor, `/journey/${id}/report`);
    await until(async () => (await report()).steps[0].done >= 2_000, 120_000, { intervalMs: 50, what: "2,000 joiners past the welcome" });
    assert.equal(await victim.kill9(), "SIGKILL");
    const atKill = (await report()).steps[0].done;
    assert.ok(atKill < JOINERS, `the victim was killed before the end (${atKill} welcomed)`);
    // The survivor takes the dead node's claims once it stops beating, and finishes.
    const done = await until(async () => {
      const counts = await report();
      return counts.steps[0].done === JOINERS && counts;
    }, 200_000, { intervalMs: 1000, what: "every joiner past the welcome on the survivor" });
    assert.equal(done.entered, JOINERS, "each joiner entered once");
    assert.deepEqual([done.steps[0].entered, done.steps[1].entered, done.steps[1].waiting], [JOINERS, JOINERS, JOINERS], "each step reached once");
    await until(async () => (await sim.status()).received >= JOINERS, 200_000, { intervalMs: 1000, what: "every welcome at the simulator" });
    const messages = await sim.messages(`limit=${2 * JOINERS}`);
    assert.equal(new Set(messages.map((m) => m.destination_addr)).size, JOINERS, "every joiner welcomed");
    const duplicates = messages.length - JOINERS;
    console.log(`two nodes, one killed: ${atKill} welcomed at the kill, ${duplicates} welcomes twice`);
    assert.ok(duplicates <= BATCH + 2 * WINDOW, `${duplicates} welcomes twice ≤ a batch and the two nodes' windows`);
  } finally {
    await Promise.all([survivor.stop(), victim.stop(), sim.stop()]);
  }
});
