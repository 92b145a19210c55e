// The campaign report of a 1,000,000-recipient campaign (GET /campaign/:id/report), on SQLite
// and on PostgreSQL (Debian's, started here on loopback): the campaign is sent to the built-in
// SMSC and every receipt comes back, then the report is asked 100 times; prints p50 and p99.
//   TEXTO_BIN=… TEXTO_WEB_DIR=… node tests/bench/report-bench.mjs [sqlite|postgres]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { api } from "../e2e/app.mjs";
import { startTexto } from "../e2e/server.mjs";

const RECIPIENTS = 1_000_000;
const ASKS = 100;
const root = new URL("../..", import.meta.url).pathname;

async function bench(store) {
  let cluster;
  let db;
  if (store === "postgres") {
    cluster = mkdtempSync(join(tmpdir(), "texto-report-pg-"));
    db = execFileSync(join(root, "scripts/postgres"), ["start", cluster]).toString().trim().split("\n").at(-1);
  }
  const texto = await startTexto(["--builtin-dlr-delay-ms", "10"], db ? { db } : {});
  try {
    execFileSync(process.env.TEXTO_BIN, ["account", "credit", "demo", "2000000", "--db", texto.db]);
    const gsm = Array.from({ length: RECIPIENTS }, (_, i) => ({ value: `336${String(10_000_000 + i).padStart(8, "0")}` }));
    const sent = (await api(texto, "POST", "/send", { sms: { message: { text: "Soldes <-short->", pushtype: "alert", links: ["https://shop.example/soldes"] }, recipients: { gsm } } })).body;
    if (sent.status !== 1) throw new Error(JSON.stringify(sent));
    const started = performance.now();
    for (;;) {
      const campaign = (await api(texto, "GET", `/campaign/${sent.ticket}`)).body.campaign[0];
      if (campaign.status === "Sent" && campaign.pending === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    const deliveredIn = ((performance.now() - started) / 1000).toFixed(0);
    const times = [];
    let report;
    for (let i = 0; i < ASKS; i++) {
      const at = performance.now();
      report = (await api(texto, "GET", `/campaign/${sent.ticket}/report`)).body.report;
      times.push(performance.now() - at);
    }
    times.sort((a, b) => a - b);
    const p = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)].toFixed(1);
    console.log(`${store}: report of ${report.sent.toLocaleString("en")} messages (${report.delivered.toLocaleString("en")} delivered, all back in ${deliveredIn} s): p50 ${p(0.5)} ms, p99 ${p(0.99)} ms over ${ASKS} asks`);
  } finally {
    await texto.stop();
    if (cluster) {
      execFileSync(join(root, "scripts/postgres"), ["stop", cluster]);
      rmSync(cluster, { recursive: true, force: true });
    }
  }
}

for (const store of process.argv[2] ? [process.argv[2]] : ["sqlite", "postgres"]) await bench(store);
