// Segments in Chromium: a segment is built rule by rule while the server counts it (every rule,
// then any of them), saved, and
// sent to from Compose, where the in-page simulation agrees with the server's; the contacts
// page filters by it; with "Marketing needs consent" on, Compose counts those without consent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

test("a segment is built with its live count, matches any of its rules, is saved, and sent to from Compose", async () => {
  const numbers = ["33616161601", "33616161602", "33616161603"];
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Magasin", contacts: { gsm: numbers.map((value) => ({ value })) } } });
  assert.equal(list.status, 200, JSON.stringify(list.body));
  for (const number of numbers.slice(0, 2)) {
    const saved = await api(suite.texto, "PUT", `/contact/${number}`, { contact: { tags: ["vip"], fields: { city: "Lyon" } } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
  }
  const third = await api(suite.texto, "PUT", `/contact/${numbers[2]}`, { contact: { fields: { city: "Marseille" } } });
  assert.equal(third.status, 200, JSON.stringify(third.body));

  const page = await openApp(suite.browser, suite.texto, { path: "/app/segments" });
  await page.getByRole("heading", { name: "Segments", level: 1 }).waitFor();
  await page.getByTestId("segment-count").filter({ hasText: "3 contacts" }).waitFor();
  await page.getByLabel("Name").fill("Clients VIP");
  await page.getByRole("button", { name: "Add a rule" }).click();
  await page.getByLabel("Rule 1 – Tag").fill("vip");
  await page.getByTestId("segment-count").filter({ hasText: "2 contacts" }).waitFor();
  await page.getByRole("button", { name: "Add a rule" }).click();
  await page.getByLabel("Rule 2 – kind").selectOption({ label: "Field" });
  await page.getByLabel("Rule 2 – field name").fill("city");
  await page.getByLabel("Rule 2 – value").fill("Paris");
  await page.getByTestId("segment-count").filter({ hasText: "0 contacts" }).waitFor();
  await page.getByLabel("Rule 2 – value").fill("lyon");
  await page.getByTestId("segment-count").filter({ hasText: "2 contacts" }).waitFor();
  // Tagged vip or in Marseille: the two VIPs and the third contact.
  await page.getByLabel("Rule 2 – value").fill("marseille");
  await page.getByTestId("segment-count").filter({ hasText: "0 contacts" }).waitFor();
  await page.getByLabel("Contacts in the segment meet").selectOption({ label: "at least one rule" });
  await page.getByTestId("segment-count").filter({ hasText: "3 contacts" }).waitFor();
  await assertAccessible(page, "Segments");
  await screenshots(page, "segments");
  await page.getByRole("button", { name: "Save segment" }).click();
  await page.getByTestId("segments").getByText("Clients VIP").waitFor();
  assert.match(await page.getByTestId("segments").getByRole("row").filter({ hasText: "Clients VIP" }).textContent(), /at least one rule/);
  const saved = (await api(suite.texto, "GET", "/segments")).body.segments;
  assert.equal(saved.length, 1);
  assert.deepEqual(saved[0].rules.map((r) => r.type), ["tag", "field"]);
  assert.equal(saved[0].match, "any");

  await page.getByRole("button", { name: "Send to this segment Clients VIP" }).click();
  await page.getByRole("heading", { name: "Compose", level: 1 }).waitFor();
  await eventually(() => page.getByLabel("Clients VIP").isChecked(), (checked) => checked, "the segment is chosen");
  await page.getByLabel("Message", { exact: true }).fill("Soirée privée jeudi");
  const figures = page.locator(".simulation dl.figures");
  await eventually(() => figures.textContent(), (text) => /Sent\s*3/.test(text), "the page counts the segment's three contacts");
  await page.getByRole("button", { name: "Check with server" }).click();
  await page.getByText("The server's simulation gives the same figures.").waitFor();
  await page.context().close();

  const contacts = await openApp(suite.browser, suite.texto, { path: "/app/contacts" });
  await contacts.getByRole("heading", { name: "Contacts", level: 1 }).waitFor();
  await contacts.getByText(/^More filters/).click();
  await contacts.getByLabel("Segments").selectOption({ label: "Clients VIP" });
  await eventually(async () => contacts.getByTestId("contacts").getByRole("link").count(), (n) => n === 3, "the segment's three contacts");
  await contacts.getByLabel("Engagement").selectOption({ label: "Never clicked" });
  await eventually(async () => contacts.getByTestId("contacts").getByRole("link").count(), (n) => n === 3, "no one clicked");
  await contacts.getByLabel("Engagement").selectOption({ label: "Clicked a link" });
  await contacts.getByTestId("contacts").getByText("No contact matches.").waitFor();
  await assertAccessible(contacts, "Contacts with more filters");
  await screenshots(contacts, "contacts-filters");
  await contacts.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/segments" });
  await french.getByRole("heading", { name: "Segments", level: 1 }).waitFor();
  await french.getByRole("button", { name: "Modifier Clients VIP" }).click();
  await french.getByTestId("segment-count").filter({ hasText: "3 contacts" }).waitFor();
  assert.equal(await french.getByLabel("Les contacts du segment remplissent").inputValue(), "any");
  await assertAccessible(french, "Segments en français");
  await screenshots(french, "segments-fr");
  assert.deepEqual(french.errors, []);
  await french.context().close();
});

test("with marketing needing consent, Compose counts the contacts without it", async () => {
  const numbers = ["33617171701", "33617171702"];
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Consentis", contacts: { gsm: numbers.map((value) => ({ value })) } } });
  await api(suite.texto, "PUT", `/contact/${numbers[0]}`, { contact: { consent: { source: "form", proof: "Formulaire" } } });
  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  await page.getByLabel(/Marketing needs consent/).check();
  await page.locator("#reply-settings-title").locator("..").getByRole("button", { name: "Save" }).click();
  await eventually(async () => (await api(suite.texto, "GET", "/settings")).body.settings.marketing_needs_consent, (v) => v === 1, "the setting saved");
  await page.goto(`${suite.texto.url}/app/compose`);
  await page.getByRole("heading", { name: "Compose", level: 1 }).waitFor();
  await page.getByLabel("Stored lists").check();
  await page.getByLabel(/^Consentis/).check();
  await page.getByLabel(/^Marketing/).check();
  await page.getByLabel("Message", { exact: true }).fill("Promo de Noël");
  const figures = page.locator(".simulation dl.figures");
  await eventually(() => figures.textContent(), (text) => /Without consent\s*1/.test(text) && /Sent\s*1/.test(text), "one without consent");
  await page.getByRole("button", { name: "Check with server" }).click();
  await page.getByText("The server's simulation gives the same figures.").waitFor();
  assert.equal(list.status, 200);
  await api(suite.texto, "PUT", "/settings", { settings: { marketing_needs_consent: 0 } });
  await page.context().close();
});
