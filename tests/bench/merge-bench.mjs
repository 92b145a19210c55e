// Merge fields over 1,000,000 list recipients (POST /send/lists/simulate), on SQLite: a list of
// 1,000,000 contacts, each with a first name and a custom field on its card, simulated with a
// plain text, with [info1], and with [firstname] and [field:ville]; prints the median of
// several runs of each and how much slower the merged ones are (target: at most 20%).
//   TEXTO_BIN=…/release/texto TEXTO_WEB_DIR=… node tests/bench/merge-bench.mjs
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { api } from "../e2e/app.mjs";
import { startTexto } from "../e2e/server.mjs";

const RECIPIENTS = 1_000_000;
const RUNS = 5;

const texto = await startTexto();
try {
  const gsm = Array.from({ length: RECIPIENTS }, (_, i) => ({ value: `336${String(10_000_000 + i).padStart(8, "0")}`, info1: `Client ${i % 1000}` }));
  const list = (await api(texto, "POST", "/list", { list: { name: "Un million", contacts: { gsm } } })).body;
  if (list.status !== 1) throw new Error(JSON.stringify(list).slice(0, 500));
  // Every contact's card gets a first name and a town (written straight to the database: the
  // API sets one card a request).
  execFileSync("python3", ["-c", `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=60)
db.execute("UPDATE account_contacts SET firstname = 'Prénom' || (number % 997), fields = json_object('ville', 'Ville ' || (number % 101))")
db.commit()
`, texto.db]);
  const simulate = async (text) => {
    const at = performance.now();
    const answer = (await api(texto, "POST", "/send/lists/simulate", { sms: { message: { text, pushtype: "alert" }, lists: [{ value: list.id }] } })).body;
    if (answer.status !== 1 || answer.sent !== RECIPIENTS) throw new Error(JSON.stringify(answer));
    return performance.now() - at;
  };
  const cases = [
    ["plain text", "Bonjour, les soldes commencent demain !"],
    ["[info1]", "Bonjour [info1], les soldes commencent demain !"],
    ["[firstname] and [field:ville]", "Bonjour [firstname|client], les soldes commencent demain à [field:ville] !"],
  ];
  const medians = [];
  for (const [name, text] of cases) {
    await simulate(text); // warm-up
    const times = [];
    for (let i = 0; i < RUNS; i++) times.push(await simulate(text));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(RUNS / 2)];
    medians.push(median);
    const slower = medians.length > 1 ? ` (${((median / medians[0] - 1) * 100).toFixed(0)}% slower than plain text)` : "";
    console.log(`${name}: median ${median.toFixed(0)} ms over ${RUNS} simulations of ${RECIPIENTS.toLocaleString("en")} list recipients${slower}`);
  }
} finally {
  await texto.stop();
}
