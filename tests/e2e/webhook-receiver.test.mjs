// A receiver written in JavaScript gets texto's webhook events and checks their signature with
// the npm package's verifyWebhook: the workers sign exactly what receivers verify. A first
// answer 500 is retried with the same X-Service-Delivery.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { core } from "../core-js/package.mjs";
import { startTexto } from "./server.mjs";
import { api, eventually } from "./app.mjs";

const SECRET = "receiver-s3cret";
const received = [];
let failFirst = true;
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    let verified;
    try {
      verified = core.verifyWebhook(SECRET, request.headers["x-service-timestamp"], request.headers["x-service-signature"], body, Date.now());
    } catch (error) {
      verified = String(error);
    }
    received.push({ verified, event: request.headers["x-service-event"], delivery: request.headers["x-service-delivery"], agent: request.headers["user-agent"], body: JSON.parse(body) });
    response.statusCode = failFirst ? 500 : 204;
    failFirst = false;
    response.end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const texto = await startTexto(["--builtin-dlr-delay-ms", "50", "--webhook-retry-delays", "200ms"]);
after(async () => {
  await texto.stop();
  receiver.close();
});

test("DLR events reach a JavaScript receiver signed, and a 500 is retried with the same delivery id", async () => {
  const url = `http://127.0.0.1:${receiver.address().port}/texto`;
  const created = await api(texto, "POST", "/webhook", { webhook: { type: "DLR", url, signature: SECRET } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const sent = await api(texto, "POST", "/send", { sms: { message: { text: "Bonjour", pushtype: "alert" }, recipients: { gsm: [{ value: "33655500012" }] } } });
  assert.equal(sent.status, 200);
  await eventually(() => received.length, (n) => n >= 2, "the event and its retry");
  assert.deepEqual(received.map((r) => r.verified), [true, true], "verifyWebhook accepts what texto signs");
  assert.equal(received[0].delivery, received[1].delivery);
  assert.equal(received[0].event, "DLR");
  assert.match(received[0].agent, /^texto\//);
  assert.equal(received[1].body.destination, "33655500012");
  assert.equal(received[1].body.status, 3);
  assert.equal(received[1].body.campaign_id, sent.body.ticket);
  // The receiver has the retry before texto stores that attempt's result.
  const attempts = async () => {
    const log = await api(texto, "GET", `/webhook/${created.body.webhook.webhook_id}/log`);
    return log.body.log.map((e) => [e.http_code, e.state]);
  };
  await eventually(attempts, (log) => log.length === 2 && log[0][0] === 204, "both attempts logged");
  assert.deepEqual(await attempts(), [[204, "delivered"], [500, "delivered"]]);
});
