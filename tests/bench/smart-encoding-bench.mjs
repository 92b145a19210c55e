// Smart encoding through the npm package over 1,000,000 French texts of 160 characters
// (typographic quotes, dashes, ellipses and accents GSM 03.38 lacks): toGsmAll, all of them in
// one call, as a service or a page checks a whole file, then toGsm, one call each (with the
// list of twins). Prints the best of three runs of each.
//   node tests/bench/smart-encoding-bench.mjs   (after scripts/test built core/pkg-node)
import { performance } from "node:perf_hooks";
import { core } from "../core-js/package.mjs";

const TEXTS = 1_000_000;
const RUNS = 3;
const words = ["Fête", "d’été", "–20 %", "crêpes…", "goûter", "cœur", "tôt", "« soldes »", "île", "Noël", "été", "à", "bientôt"];
const texts = [];
for (let i = 0; i < 1_000; i++) {
  let text = `${i} `;
  for (let w = i; text.length < 160; w += 7) text += `${words[w % words.length]} `;
  texts.push(text.slice(0, 160));
}
let replaced = 0;
const times = [];
for (let run = 0; run < RUNS; run++) {
  replaced = 0;
  const started = performance.now();
  for (let i = 0; i < TEXTS; i++) replaced += core.toGsm(texts[i % texts.length]).replaced;
  times.push(performance.now() - started);
}
const all = [];
const many = Array.from({ length: TEXTS }, (_, i) => texts[i % texts.length]);
let replacedAll = 0;
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const gsm = core.toGsmAll(many);
  all.push(performance.now() - started);
  replacedAll = gsm.replaced.reduce((sum, n) => sum + n, 0);
}
console.log(`toGsmAll: ${TEXTS.toLocaleString("en")} texts of 160 characters in one call in ${Math.min(...all).toFixed(0)} ms (best of ${RUNS}; ${replacedAll.toLocaleString("en")} characters replaced)`);
const best = Math.min(...times);
console.log(`toGsm: ${TEXTS.toLocaleString("en")} texts of 160 characters in ${best.toFixed(0)} ms (best of ${RUNS}; ${replaced.toLocaleString("en")} characters replaced)`);
