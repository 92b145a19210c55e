// What the operator decides, as the web app shows it: a price plan charges Compose's
// in-page simulation, the server's and the debit alike; a campaign held for moderation reads
// "awaiting moderation"; a campaign whose route has no connector up says why it waits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots, PHONE } from "./app.mjs";

const suite = serveForTests();

function texto(...args) {
  return execFileSync(process.env.TEXTO_BIN, [...args, "--db", suite.texto.db], { encoding: "utf8" }).trim();
}

/** The running texto reads plans, rules, connectors and routes each second (a loaded machine's margin). */
const read = () => new Promise((resolve) => setTimeout(resolve, 2_500));

function sms(numbers, text) {
  return { sms: { message: { text, pushtype: "alert" }, recipients: { gsm: numbers.map((value) => ({ value })) } } };
}

test("on a plan, Compose's simulation, the server's and the debit all use its prices", async () => {
  texto("plan", "set", "partner", "--country", "FR=0.5", "--country", "BE=0.75", "--other", "3");
  texto("account", "plan", "demo", "partner");
  await read();
  const page = await openApp(suite.browser, suite.texto);
  await page.getByLabel("Message", { exact: true }).fill("Rendez-vous demain à 10h");
  await page.getByLabel("Recipients", { exact: true }).fill("+33612345678\n+32470123456\n+4915123456789");
  const figures = page.getByTestId("simulation");
  await eventually(() => figures.textContent(), (t) => /Cost4\.25Credits after995\.75/.test(t), "the plan's cost in the page");
  await page.getByRole("button", { name: "Check with server" }).click();
  await page.getByText("The server's simulation gives the same figures.").waitFor();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Send this campaign?" });
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await page.getByTestId("accepted").waitFor();
  await eventually(() => page.getByTestId("credits").textContent(), (t) => t.includes("995.75"), "credits after the send");
  assert.deepEqual(page.errors, []);
  await page.context().close();
  texto("account", "plan", "demo", "shipped");
});

test("a held campaign reads awaiting moderation, and one whose route is down says why it waits (both languages)", async () => {
  texto("moderation", "add-pattern", "cr[ée]dit\\s+rapide");
  texto("connector", "add", "A", "smpp://texto:secret@127.0.0.1:9");
  texto("route", "add", "--connectors", "A", "--prefix", "3368");
  await read();
  const held = await api(suite.texto, "POST", "/send", sms(["33612345670"], "Votre crédit rapide en 24h"));
  assert.equal(held.status, 202, JSON.stringify(held.body));
  assert.equal(held.body.status, -8);
  const waiting = await api(suite.texto, "POST", "/send", sms(["33681234567"], "Rendez-vous confirmé jeudi 9h"));
  assert.equal(waiting.status, 200, JSON.stringify(waiting.body));

  for (const [locale, awaiting, why] of [
    ["en-GB", "Awaiting moderation", "Its messages wait: no connector of their route can take them now: A"],
    ["fr-FR", "En attente de modération", "Ses messages attendent : aucun connecteur de leur route ne peut les prendre pour l’instant : A"],
  ]) {
    const page = await openApp(suite.browser, suite.texto, { path: "/app/campaigns", locale, viewport: locale === "fr-FR" ? PHONE : undefined });
    const row = page.getByRole("row").filter({ hasText: "crédit rapide" });
    await eventually(() => row.textContent(), (t) => t.includes(awaiting), `the held campaign's status (${locale})`);
    await page.goto(`${suite.texto.url}/app/campaigns/${waiting.body.ticket}`);
    const note = page.getByTestId("waiting");
    await eventually(() => note.textContent(), (t) => t === why, `why it waits (${locale})`);
    await assertAccessible(page, `a campaign waiting for a connector (${locale})`);
    await screenshots(page, `campaign-waiting-${locale}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
