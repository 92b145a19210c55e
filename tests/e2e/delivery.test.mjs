// Delivery as marketing staff see it: a campaign sent from Compose to numbers whose receipts
// differ fills its detail page as the built-in SMSC's receipts arrive; a click on a short link
// and a STOP reply show up there too, and in the blacklist with their source.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, assertAccessible, eventually, openApp, screenshots, api } from "./app.mjs";

// Receipts 300 ms after each message: slow enough to see the page fill, quick for a test.
const suite = serveForTests(["--builtin-dlr-delay-ms", "300"]);

test("a campaign sent from Compose fills its detail as receipts arrive", async () => {
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Votre commande est prête");
  // The simulator's outcomes by suffix: 78 delivered, 00 unknown (NPAI), 99 not delivered, 98 expired.
  await page.getByLabel("Recipients", { exact: true }).fill("0612345678\n0612345600\n0612345699\n0612345698");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send this campaign?" });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await page.getByTestId("accepted").waitFor();
  await page.getByRole("link", { name: "See the campaign" }).click();
  const figures = page.getByTestId("campaign-figures");
  // The page refreshes by itself until every receipt is in: 1 of 4 delivered.
  await eventually(() => figures.textContent(), (t) => /Delivered25\s?%/.test(t), "the delivery rate from the receipts");
  const chart = page.getByRole("img", { name: "Delivery status of the sent messages" });
  const bars = await eventually(() => chart.textContent(), (t) => /Delivered1/.test(t) && /Waiting for a receipt0/.test(t), "the chart's final counts");
  assert.match(bars, /Not delivered1/);
  assert.match(bars, /Expired1/);
  assert.match(bars, /NPAI1/);
  await assertAccessible(page, "a delivered campaign");
  await screenshots(page, "campaign-delivered");

  // The Messages table: each recipient with its status; filtered by status; exported as CSV.
  const messages = page.getByTestId("campaign-messages");
  await eventually(() => messages.textContent(), (t) => /33612345678Delivered/.test(t) && /33612345600Unknown number \(NPAI\)/.test(t), "each recipient's status");
  assert.equal(await messages.getByRole("row").count(), 5, "a header and four recipients");
  await page.getByLabel("Filter by status").selectOption({ label: "Expired" });
  // While the filtered page loads, the table holds one "Loading…" row: wait for the answer.
  await eventually(() => messages.textContent(), (t) => /33612345698Expired/.test(t) && !/33612345678/.test(t), "the status filter");
  assert.equal(await messages.getByRole("row").count(), 2, "a header and the one expired message");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const exported = Buffer.concat(await (await download.createReadStream()).toArray()).toString("utf8").trim().split("\n");
  assert.equal(exported.length, 2, "the export follows the filter");
  assert.match(exported[1], /^33612345698,expired,/);

  await page.getByRole("link", { name: "NPAI" }).click();
  const row = page.getByRole("row").filter({ hasText: "33612345600" });
  await row.waitFor();
  assert.match(await row.textContent(), /Unknown number \(carrier\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("clicks and STOP replies reach the campaign detail, and who clicked is exported", async () => {
  const texto = suite.texto;
  const landing = `${texto.url}/app/`;
  const sent = await api(texto, "POST", "/send", {
    sms: { message: { text: "Nouveautés : <-short->", pushtype: "alert", links: [landing] }, recipients: { gsm: [{ value: "33687654321" }] } },
  });
  assert.equal(sent.status, 200);
  const ticket = sent.body.ticket;
  const received = await eventually(
    async () => (await api(texto, "GET", "/simulator/messages?destination=33687654321")).body.messages,
    (messages) => messages?.length === 1,
    "the message at the SMSC",
  );
  const shortUrl = received[0].text.match(/http\S+\/s\/\w{6}/)[0];

  // The recipient's phone follows the link and lands on the long URL.
  const phone = await suite.browser.newContext({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1" });
  const tab = await phone.newPage();
  await tab.goto(shortUrl);
  assert.equal(tab.url(), landing);
  await phone.close();
  // And answers STOP.
  const mo = await api(texto, "POST", "/simulator/mo", { from: "33687654321", text: "STOP" });
  assert.equal(mo.status, 200);

  const page = await openApp(suite.browser, texto, { locale: "fr-FR" });
  await page.goto(`${texto.url}/app/campaigns/${ticket}`);
  const figures = page.getByTestId("campaign-figures");
  await eventually(() => figures.textContent(), (t) => t.includes(`Lien court${landing} — Clics 1 · Personnes 1`), "one click by one person");
  await eventually(() => figures.textContent(), (t) => /Réponses STOP1/.test(t), "the STOP reply");
  await assertAccessible(page, "a campaign with clicks");
  await screenshots(page, "campaign-clicks-fr");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Exporter qui a cliqué (CSV)" }).click()]);
  const csv = await (await download.createReadStream()).toArray();
  const bytes = Buffer.concat(csv);
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8 with a byte order mark, for French Excel");
  const lines = bytes.toString("utf8").trim().split("\n");
  assert.equal(lines[0], "number,link,clicks,last_click,brand,model,os,info1,info2,info3,info4");
  assert.match(lines[1], new RegExp(`^33687654321,${landing.replace(/[.:/]/g, "\\$&")},1,.*,Apple,iPhone,iOS,,,,$`));

  await page.getByRole("link", { name: "Réponses" }).click();
  const replies = page.getByTestId("replies");
  await eventually(() => replies.textContent(), (t) => t.includes("33687654321STOP"), "the STOP among the replies");
  await replies.getByRole("link", { name: String(ticket) }).waitFor();
  await assertAccessible(page, "replies (fr)");
  await screenshots(page, "replies-fr");

  await page.getByRole("link", { name: "Liste noire" }).click();
  const row = page.getByRole("row").filter({ hasText: "33687654321" });
  await row.waitFor();
  assert.match(await row.textContent(), /Réponse STOP/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
