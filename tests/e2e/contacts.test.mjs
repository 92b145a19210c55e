// Contacts in Chromium: the numbers of a list and the contacts with cards, filtered by tag and
// consent; a contact's page edits its names, tags and fields and records an opt-in; its data
// downloads; it is erased, and its messages keep the campaign's counts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

test("a contact is found, edited with tags, fields and consent, downloaded and erased", async () => {
  const number = "33614141414";
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Boutique", contacts: { gsm: [{ value: number }, { value: "33615151515" }] } } });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Nouveautés en boutique", pushtype: "alert" }, recipients: { gsm: [{ value: number }] } } });
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0].status, (s) => s === "Sent", "the campaign sent");

  const page = await openApp(suite.browser, suite.texto, { path: "/app/contacts" });
  await page.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
  const table = page.getByTestId("contacts");
  await table.getByRole("link", { name: number }).waitFor();
  await table.getByRole("link", { name: "33615151515" }).waitFor();
  await assertAccessible(page, "Contacts");
  await screenshots(page, "contacts");
  await table.getByRole("link", { name: number }).click();

  await page.getByRole("heading", { name: `Contact ${number}` }).waitFor();
  await page.getByText("Nouveautés en boutique").waitFor();
  await page.getByLabel("First name").fill("Inès");
  await page.getByLabel("Tags").fill("vip, boutique");
  await page.getByLabel("Custom fields").fill("city: Lyon");
  await page.getByLabel("Record an opt-in now").check();
  await page.getByLabel(/Proof of consent/).fill("Case cochée en caisse le 26/11");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
  await eventually(() => page.getByTestId("consent").textContent(), (text) => text.includes("Opted in on") && text.includes("Case cochée"), "the opt-in shown");
  const card = (await api(suite.texto, "GET", `/contact/${number}`)).body.contact;
  assert.deepEqual(card.tags, ["vip", "boutique"]);
  assert.equal(card.fields.city, "Lyon");
  assert.equal(card.consent.source, "api");
  await assertAccessible(page, "a contact");
  await screenshots(page, "contact");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download its data (JSON)" }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), `contact-${number}.json`);

  await page.goto(`${suite.texto.url}/app/contacts`);
  await page.getByLabel("Tag", { exact: true }).fill("vip");
  await eventually(async () => page.getByTestId("contacts").getByRole("link").count(), (n) => n === 1, "one vip");
  await page.getByLabel("Consent").selectOption({ label: "Without an opt-in" });
  await page.getByTestId("contacts").getByText("No contact matches.").waitFor();

  await page.goto(`${suite.texto.url}/app/contacts/${number}`);
  await page.getByRole("button", { name: "Erase this contact…" }).click();
  await page.getByRole("button", { name: "Erase for good" }).click();
  await page.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
  assert.equal((await api(suite.texto, "GET", `/contact/${number}`)).status, 404);
  const campaign = (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0];
  assert.equal(campaign.sent, 1, "the campaign's count stays");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/contacts" });
  await french.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
  await french.getByTestId("contacts").getByRole("link", { name: "33615151515" }).waitFor();
  await assertAccessible(french, "Contacts en français");
  await screenshots(french, "contacts-fr");
  await french.context().close();
});
