// Home in Chromium: the first screen after sign-in shows the period's figures, which match the
// campaign's own, the spending chart and the last campaigns, in English and French.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

/// The figure labelled `label` on Home.
const figure = (page, label) => page.getByTestId("home-figures").locator(".stat").filter({ has: page.getByText(label, { exact: true }) }).locator("dd");

test("Home opens first and its figures match the campaign's", async () => {
  const numbers = ["33612121212", "33613131313"];
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Soldes d'hiver", pushtype: "alert" }, recipients: { gsm: numbers.map((value) => ({ value })) } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const campaign = await eventually(
    async () => (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0],
    (c) => c.status === "Sent" && c.pending === 0,
    "every receipt",
  );
  await eventually(async () => (await api(suite.texto, "POST", "/simulator/mo", { from: numbers[0], text: "STOP" })).status, (s) => s === 200, "the STOP sent");
  await eventually(async () => (await api(suite.texto, "GET", "/metrics/daily")).body.days.at(-1).replies, (n) => n === 1, "the STOP counted");

  const page = await openApp(suite.browser, suite.texto, { path: "/app/" });
  await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
  assert.match(page.url(), /\/app\/home$/);
  await eventually(() => figure(page, "Messages sent").textContent(), (text) => text === "2", "sent");
  assert.equal(await figure(page, "Delivered").textContent(), `${campaign.delivery_rate}%`);
  assert.equal(await figure(page, "STOPs").textContent(), "1");
  assert.equal(await figure(page, "Replies").textContent(), "1");
  assert.equal(await figure(page, "Credits spent").textContent(), String(campaign.cost));
  await page.getByRole("region", { name: "Last campaigns" }).getByRole("row").filter({ hasText: "Soldes d'hiver" }).waitFor();
  await page.getByRole("img", { name: /Credits spent per day/ }).waitFor();
  await page.getByLabel("Period").selectOption({ label: "Last 90 days" });
  await eventually(async () => page.locator("svg.spending rect").count(), (n) => n === 90, "90 days charted");
  assert.equal(await figure(page, "Messages sent").textContent(), "2");
  await assertAccessible(page, "Home");
  await screenshots(page, "home");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/" });
  await french.getByRole("heading", { name: "Accueil", level: 1 }).waitFor();
  await eventually(() => figure(french, "Messages envoyés").textContent(), (text) => text === "2", "envoyés");
  await assertAccessible(french, "Accueil");
  await screenshots(french, "home-fr");
  await french.context().close();
});
