// Two builds of the npm package on the filter bench's workload, in one process, run after run:
//   node tests/bench/filter-ab.mjs BEFORE_DIR AFTER_DIR [ROUNDS]
// (each a wasm-pack output folder, e.g. core/pkg-node of two commits). The development machine
// runs the same code at one of two speeds for seconds at a time, so two builds measured in two
// processes can differ by a third for no reason of theirs; alternating them here, each round in
// the other order, gives both the same share of each speed. Prints each build's median and the
// median of AFTER's time over BEFORE's, round by round.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { workload } from "./filter-workload.mjs";

const [before, after] = process.argv.slice(2, 4).map((dir) => dir && resolve(dir, "texto_core.js"));
if (!after) {
  console.error("usage: node tests/bench/filter-ab.mjs BEFORE_DIR AFTER_DIR [ROUNDS]");
  process.exit(2);
}
const rounds = Number(process.argv[4] ?? 20);
const require = createRequire(import.meta.url);
const builds = [require(before), require(after)];
const { body, context, now } = workload(builds[0]);

const time = (core) => {
  const start = performance.now();
  const result = core.simulate(body, "json", context, now);
  return { ms: performance.now() - start, sent: result.sent };
};
// Both compiled and warmed before anything counts.
for (let i = 0; i < 2; i++) builds.forEach(time);
const times = [[], []];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [1, 0] : [0, 1];
  const sent = [];
  for (const which of order) {
    const { ms, sent: count } = time(builds[which]);
    times[which].push(ms);
    sent[which] = count;
  }
  if (sent[0] !== sent[1]) {
    console.error(`the two builds disagree: ${sent[0]} sent before, ${sent[1]} after`);
    process.exit(1);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratios = times[1].map((ms, round) => ms / times[0][round]);
console.log(`1,000,000 recipients, ${rounds} rounds alternated:`);
console.log(`  before: median ${median(times[0]).toFixed(0)} ms, fastest ${Math.min(...times[0]).toFixed(0)} ms`);
console.log(`  after:  median ${median(times[1]).toFixed(0)} ms, fastest ${Math.min(...times[1]).toFixed(0)} ms`);
console.log(`  after / before, median of the rounds: ${median(ratios).toFixed(3)}`);
