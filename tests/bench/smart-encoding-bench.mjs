// Smart encoding through the npm package: toGsm over 1,000,000 French texts of 160 characters
// (typographic quotes, dashes, ellipses and accents GSM 03.38 lacks), one call each, as a page
// or a Node service checks texts one by one. Prints the best of three runs.
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
const best = Math.min(...times);
console.log(`toGsm: ${TEXTS.toLocaleString("en")} texts of 160 characters in ${best.toFixed(0)} ms (best of ${RUNS}; ${replaced.toLocaleString("en")} characters replaced)`);
