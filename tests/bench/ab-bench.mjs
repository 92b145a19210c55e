// An A/B campaign to 1,000,000 list recipients accepted (POST /send/lists) against the same
// campaign with one text, on SQLite: a list of 1,000,000 contacts, sent alternately with and
// without a test of two texts (20% sample), each send timed from request to answer (the
// campaign and its million messages written); prints the median of each and how much slower
// the test is (target: within 10%).
//   TEXTO_BIN=…/release/texto TEXTO_WEB_DIR=… node tests/bench/ab-bench.mjs
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { api } from "../e2e/app.mjs";
import { startTexto } from "../e2e/server.mjs";

const RECIPIENTS = 1_000_000;
const RUNS = 5;

const texto = await startTexto();
try {
  // Enough credits for every send (1 credit a message).
  execFileSync(process.env.TEXTO_BIN, ["account", "credit", "demo", String(RECIPIENTS * (2 * RUNS + 2)), "--db", texto.db]);
  // Every send goes to the same million numbers within the hour: anti-flood would hold them.
  execFileSync(process.env.TEXTO_BIN, ["account", "flood", "demo", "--identical-per-hour", "100", "--any-per-hour", "100", "--db", texto.db]);
  // Scheduled two months ahead: nothing is handed over meanwhile, so what is measured is the
  // acceptance alone.
  const later = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const gsm = Array.from({ length: RECIPIENTS }, (_, i) => ({ value: `336${String(10_000_000 + i).padStart(8, "0")}` }));
  const list = (await api(texto, "POST", "/list", { list: { name: "Un million", contacts: { gsm } } })).body;
  if (list.status !== 1) throw new Error(JSON.stringify(list).slice(0, 500));
  const send = async (ab) => {
    const message = { text: "Les soldes commencent demain !", pushtype: "alert", delay: `${later} 10:00:00` };
    if (ab) Object.assign(message, { variants: ["Les soldes, c’est demain !"], ab: { share: 20, wait: "2h", criterion: "clicks" } });
    const at = performance.now();
    const answer = (await api(texto, "POST", "/send/lists", { sms: { message, lists: [{ value: list.id }] } })).body;
    if (answer.status !== 1 || answer.sent !== RECIPIENTS) throw new Error(JSON.stringify(answer));
    return performance.now() - at;
  };
  await send(false); // warm-up
  const times = { plain: [], ab: [] };
  for (let i = 0; i < RUNS; i++) {
    times.plain.push(await send(false));
    times.ab.push(await send(true));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [plain, ab] = [median(times.plain), median(times.ab)];
  console.log(`one text: median ${plain.toFixed(0)} ms over ${RUNS} sends of ${RECIPIENTS.toLocaleString("en")} list recipients (${times.plain.map((t) => t.toFixed(0)).join(", ")})`);
  console.log(`A/B test of two texts, 20% sample: median ${ab.toFixed(0)} ms (${times.ab.map((t) => t.toFixed(0)).join(", ")}): ${((ab / plain - 1) * 100).toFixed(1)}% slower`);
} finally {
  await texto.stop();
}
