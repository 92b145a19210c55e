// The issue-3 workload through the npm package (wasm) and through an equivalent filter written
// in plain JavaScript (libphonenumber-js + Set), in one process. Prints both times and the ratio.
//   node tests/bench/filter-bench.mjs          (after scripts/test built core/pkg-node)
import { performance } from "node:perf_hooks";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { core } from "../core-js/package.mjs";
import { workload } from "./filter-workload.mjs";

const RUNS = 5;
const { body, context, now, blacklist, npai } = workload(core);

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
