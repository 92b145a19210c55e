// The issue-3 workload through the npm package (wasm) and through an equivalent filter written
// in plain JavaScript (libphonenumber-js + Set), in one process. Prints both times and the ratio.
//   node tests/bench/filter-bench.mjs          (after scripts/test built core/pkg-node)
import { performance } from "node:perf_hooks";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { core } from "../core-js/package.mjs";

const RECIPIENTS = 1_000_000;
const RUNS = 5;

// xorshift64*, as in core/benches/workload.rs: the same kind of numbers, deterministic.
let state = 0x7e570001n;
function random() {
  state ^= state >> 12n;
  state ^= (state << 25n) & 0xffffffffffffffffn;
  state ^= state >> 27n;
  return Number(((state * 0x2545f4914f6cdd1dn) & 0xffffffffffffffffn) >> 11n);
}

const numbers = [];
while (numbers.length < RECIPIENTS) {
  const roll = random() % 100;
  if (roll < 5 && numbers.length > 0) numbers.push(numbers[random() % numbers.length]);
  else if (roll < 6) numbers.push(`0${600000000 + (random() % 100000000)}`);
  else numbers.push(`336${String(random() % 100000000).padStart(8, "0")}`);
}
const isValid = (n) => { try { core.normalizeNumber(n); return true; } catch { return false; } };
const valid = numbers.slice(0, 800_000).filter(isValid);
const blacklist = [];
const npai = [];
for (let i = 0; i < 20000; i++) (i % 2 ? npai : blacklist).push(valid[(i * 37) % valid.length]);

const body = JSON.stringify({
  sms: {
    message: { text: "Soldes d'hiver : -30% sur tout le magasin ce week-end !", pushtype: "alert", sender: "Boutique" },
    recipients: { gsm: numbers.map((value) => ({ value })) },
  },
});
const context = { balance: 2000000, blacklist, npai };
const now = new Date("2026-11-21T10:00:00Z");

function inWasm() {
  const result = core.simulate(body, "json", context, now);
  return result.sent;
}

// The same rules in JavaScript: parse, validate as a mobile, dedupe, blacklist, NPAI, count.
function inJavaScript() {
  const request = JSON.parse(body);
  const black = new Set(blacklist);
  const gone = new Set(npai);
  const seen = new Set();
  const counters = { total: 0, sent: 0, invalid: 0, duplicated: 0, blacklisted: 0, npai: 0 };
  for (const { value } of request.sms.recipients.gsm) {
    counters.total++;
    const phone = parsePhoneNumberFromString(`+${value}`);
    const type = phone?.isValid() ? phone.getType() : undefined;
    if (!phone || (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE")) { counters.invalid++; continue; }
    const digits = phone.number.slice(1);
    if (seen.has(digits)) { counters.duplicated++; continue; }
    seen.add(digits);
    if (black.has(digits)) { counters.blacklisted++; continue; }
    if (gone.has(digits)) { counters.npai++; continue; }
    counters.sent++;
  }
  return counters.sent;
}

function median(run) {
  const times = [];
  let sent;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    sent = run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(RUNS / 2)], sent };
}

const wasm = median(inWasm);
const js = median(inJavaScript);
if (wasm.sent !== js.sent) {
  console.error(`the two filters disagree: wasm sent ${wasm.sent}, JavaScript sent ${js.sent}`);
  process.exitCode = 1;
}
console.log(`1,000,000 recipients (${(body.length / 1e6).toFixed(1)} MB JSON), median of ${RUNS}:`);
console.log(`  texto-core (wasm):               ${wasm.ms.toFixed(0)} ms  (sent ${wasm.sent})`);
console.log(`  libphonenumber-js + Set (JS):    ${js.ms.toFixed(0)} ms  (sent ${js.sent})`);
console.log(`  ratio: wasm is ${(js.ms / wasm.ms).toFixed(1)}x faster`);
