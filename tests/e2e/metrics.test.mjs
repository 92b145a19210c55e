// Metrics scraped by a real Prometheus (Debian's, started here on loopback): texto serves
// `GET /metrics` on a listener of its own (`--metrics-addr`), Prometheus scrapes it every
// second, and PromQL through Prometheus' HTTP API finds the counts of what the test did: the
// messages accepted, handed over and delivered, the requests by route and status, the webhook
// attempts, and the queue's depth. The API's listener does not serve the metrics.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api } from "./app.mjs";
import { startTexto } from "./server.mjs";

/** A free port on loopback. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `read` for 30 s until `check` holds. */
async function until(read, check, what) {
  const deadline = Date.now() + 30_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await read().catch((error) => String(error));
    if (check(seen)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${what}: last seen ${JSON.stringify(seen)}`);
}

const suite = {};

before(async () => {
  suite.metricsPort = await freePort();
  suite.texto = await startTexto(["--metrics-addr", `127.0.0.1:${suite.metricsPort}`, "--builtin-dlr-delay-ms", "20"]);
  // A webhook receiver that takes every event.
  suite.hooks = 0;
  suite.receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      suite.hooks += 1;
      response.end("ok");
    });
  });
  await new Promise((resolve) => suite.receiver.listen(0, "127.0.0.1", resolve));
  suite.dir = mkdtempSync(join(tmpdir(), "texto-prometheus-"));
  const config = join(suite.dir, "prometheus.yml");
  writeFileSync(config, [
    "global:",
    "  scrape_interval: 1s",
    "scrape_configs:",
    "  - job_name: texto",
    "    static_configs:",
    `      - targets: ["127.0.0.1:${suite.metricsPort}"]`,
  ].join("\n") + "\n");
  suite.prometheusPort = await freePort();
  suite.prometheus = spawn("prometheus", [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(suite.dir, "data")}`,
    `--web.listen-address=127.0.0.1:${suite.prometheusPort}`,
  ], { stdio: ["ignore", "ignore", "ignore"] });
});

after(async () => {
  suite.prometheus?.kill("SIGTERM");
  await suite.texto?.stop();
  suite.receiver?.close();
  if (suite.dir) rmSync(suite.dir, { recursive: true, force: true });
});

/** The value of a PromQL expression as Prometheus answers it now (summed), or null. */
async function promql(expression) {
  const response = await fetch(`http://127.0.0.1:${suite.prometheusPort}/api/v1/query?query=${encodeURIComponent(expression)}`);
  const body = await response.json();
  assert.equal(body.status, "success", JSON.stringify(body));
  const [sample] = body.data.result;
  return sample ? Number(sample.value[1]) : null;
}

test("Prometheus scrapes texto's metrics and PromQL finds what the test did", async () => {
  const hook = await api(suite.texto, "POST", "/webhook", { webhook: { type: "DLR", url: `http://127.0.0.1:${suite.receiver.address().port}/dlr` } });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  const numbers = ["33618181801", "33618181802", "33618181803"];
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Mesures", pushtype: "alert" }, recipients: { gsm: numbers.map((value) => ({ value })) } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const refused = await api(suite.texto, "GET", "/campaign/999999");
  assert.equal(refused.status, 404);
  await until(async () => (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0].delivered, (n) => n === 3, "the three receipts");
  await until(async () => suite.hooks, (n) => n === 3, "the three DLR events");

  const direct = await fetch(`http://127.0.0.1:${suite.metricsPort}/metrics`);
  const text = await direct.text();
  assert.match(text, /^# TYPE texto_http_requests_total counter$/m);
  assert.match(text, /texto_http_request_duration_seconds_bucket\{route="\/send",le="/, "latency is a histogram");
  const onApi = await fetch(`${suite.texto.url}/metrics`);
  assert.notEqual(onApi.status, 200, "the API's listener does not serve the metrics");

  const expected = [
    ["sum(texto_messages_accepted_total)", 3],
    ['sum(texto_messages_handed_over_total{connector="default"})', 3],
    ['sum(texto_receipts_total{connector="default",code="delivered"})', 3],
    ['sum(texto_http_requests_total{route="/send",status="200"})', 1],
    ['sum(texto_http_requests_total{route="/campaign/{ticket}",status="404"})', 1],
    ['sum(texto_webhook_attempts_total{outcome="delivered"})', 3],
    ["texto_queue_depth", 0],
    ['sum(texto_http_request_duration_seconds_count{route="/send"})', 1],
    ["sum(texto_sends_total)", 1],
    ["sum(texto_webhook_backlog) or vector(0)", 0],
    ['texto_connector_binds_up{connector="default"}', 1],
    ['sum(texto_connector_window_in_use{connector="default"})', 0],
    ["texto_db_pool_waiting", 0],
  ];
  for (const [expression, value] of expected) {
    await until(() => promql(expression), (seen) => seen === value, expression);
  }
  assert.equal(await promql('sum(texto_receipts_total{code="not_delivered"})'), null, "no other receipt");
});
