// Keywords in Chromium: "reply OUI to join" set up in Settings adds the number that answers to a
// list and answers it through the SMSC; "CLUB" joins a list with consent by keyword; START lifts a STOP; the help text and the STOP
// confirmation are saved; the inbox filters by keyword.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serveForTests, api, assertAccessible, eventually, openApp, screenshots } from "./app.mjs";

const suite = serveForTests();

const smscTexts = async (number) =>
  ((await api(suite.texto, "GET", `/simulator/messages?destination=${number}`)).body.messages ?? []).map((m) => m.text);

const blacklisted = async (number) =>
  ((await api(suite.texto, "GET", "/blacklist")).body.list ?? []).some((entry) => entry.destination === number);

test("a keyword made in Settings adds who answers OUI to a list and welcomes them; START lifts a STOP", async () => {
  const number = "33688888888";
  const list = await api(suite.texto, "POST", "/list", { list: { name: "Club", contacts: { gsm: [{ value: "33600000002" }] } } });
  assert.equal(list.status, 200, JSON.stringify(list.body));

  const page = await openApp(suite.browser, suite.texto, { path: "/app/settings" });
  const section = page.getByRole("region", { name: "Keywords" });
  await section.getByRole("row").filter({ hasText: "HELP" }).waitFor();
  // Fills the form with a keyword acting on the list Club, adds it, and gives its row.
  const addKeyword = async (word, reply, action) => {
    await section.getByLabel("Keyword", { exact: true }).fill(word);
    await section.getByLabel("Automatic reply").fill(reply);
    await section.getByLabel("Action").selectOption({ label: action });
    await section.getByLabel("List", { exact: true }).selectOption({ label: "Club" });
    await section.getByRole("button", { name: "Add keyword" }).click();
    const row = section.getByRole("row").filter({ hasText: action });
    await row.waitFor();
    return row.textContent();
  };
  assert.match(await addKeyword("Oui", "Bienvenue au club !", "Add to a list"), /^OUI.*Add to a list « Club »/);
  assert.match(await addKeyword("Club", "", "Join a list (with consent)"), /^CLUB.*Join a list \(with consent\) « Club »/);

  const replies = page.getByRole("region", { name: "Replies to STOP and HELP" });
  await replies.getByLabel("Help text").fill("Aide : 01 23 45 67 89");
  await replies.getByLabel("Confirm a STOP").check();
  await replies.getByRole("button", { name: "Save" }).click();
  await replies.getByRole("status").waitFor();
  await assertAccessible(page, "Settings with keywords");
  await screenshots(page, "keywords");
  assert.deepEqual(page.errors, []);

  const sent = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Rejoignez le club : répondez OUI", pushtype: "alert" }, recipients: { gsm: [{ value: number }] } } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${sent.body.ticket}`)).body.campaign[0].status, (s) => s === "Sent", "the campaign sent");
  await api(suite.texto, "POST", "/simulator/mo", { from: number, text: "oui !" });
  await eventually(() => smscTexts(number), (texts) => texts.includes("Bienvenue au club !"), "the welcome at the SMSC");
  const members = (await api(suite.texto, "GET", `/list/${list.body.id}`)).body.list.map((c) => c.destination);
  assert.ok(members.includes(number), `${number} joined the list: ${members}`);

  const joiner = "33688888801";
  const poster = await api(suite.texto, "POST", "/send", { sms: { message: { text: "Envoyez CLUB pour nous rejoindre", pushtype: "alert" }, recipients: { gsm: [{ value: joiner }] } } });
  await eventually(async () => (await api(suite.texto, "GET", `/campaign/${poster.body.ticket}`)).body.campaign[0].status, (s) => s === "Sent", "the invitation sent");
  await api(suite.texto, "POST", "/simulator/mo", { from: joiner, text: "club" });
  const consent = await eventually(async () => (await api(suite.texto, "GET", `/contact/${joiner}`)).body.contact?.consent, (c) => c?.source === "keyword", "consent by keyword");
  assert.equal(consent.proof, "club");
  const joined = (await api(suite.texto, "GET", `/list/${list.body.id}`)).body.list.map((c) => c.destination);
  assert.ok(joined.includes(joiner), `${joiner} joined the list: ${joined}`);

  await api(suite.texto, "POST", "/simulator/mo", { from: number, text: "STOP" });
  await eventually(() => blacklisted(number), (yes) => yes, "blacklisted by STOP");
  await eventually(() => smscTexts(number), (texts) => texts.some((t) => t.startsWith("Votre désinscription")), "the STOP confirmed");
  await api(suite.texto, "POST", "/simulator/mo", { from: number, text: "Start" });
  await eventually(() => blacklisted(number), (yes) => !yes, "START lifts the STOP");

  await page.goto(`${suite.texto.url}/app/inbox`);
  await page.getByLabel("Keyword").fill("OUI");
  await page.getByTestId("conversations").getByRole("link", { name: number }).waitFor();
  await page.getByLabel("Keyword").fill("NON");
  await page.getByTestId("conversations").getByText("Nobody has written yet.").waitFor();
  await page.context().close();

  const french = await openApp(suite.browser, suite.texto, { locale: "fr-FR", path: "/app/settings" });
  const mots = french.getByRole("region", { name: "Mots-clés" });
  await mots.getByRole("row").filter({ hasText: "OUI" }).waitFor();
  await assertAccessible(french, "Paramètres, mots-clés");
  await screenshots(french, "keywords-fr");
  await french.context().close();
});
